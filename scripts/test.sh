#!/usr/bin/env bash
# Sets up everything (venv, chromium) and runs the whole suite: lint and types (ruff, mypy:
# settings in pyproject.toml; any finding fails the run), then pytest (Python, parity,
# real-browser) and node --test (JS runtime).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
.venv/bin/ruff check .
.venv/bin/mypy
.venv/bin/python -m pytest "$@"
(cd js && node --test test/)
