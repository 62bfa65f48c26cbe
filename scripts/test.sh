#!/usr/bin/env bash
# Sets up everything (venv, chromium) and runs the whole suite: pytest (Python, parity,
# real-browser) and node --test (JS runtime).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
.venv/bin/python -m pytest "$@"
(cd js && node --test test/)
