#!/usr/bin/env bash
# Sets up everything, then builds and serves example-site/ on http://127.0.0.1:8000 with search.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/mkdocs serve -f example-site/mkdocs.yml -a 127.0.0.1:8000 "$@"
