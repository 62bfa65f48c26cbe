#!/usr/bin/env bash
# Creates .venv (if missing) and installs the project into it, editable.
# Usage: scripts/setup.sh [--test]
#   --test  also the test needs: Python test extras, the dev group (lint, types) and the `mcp`
#           extra (its tests talk to a real `graphsearch mcp`), typescript (type-checks the
#           runtime's JSDoc) and, as root, Debian's chromium for the real-browser tests and
#           strace (tests/test_no_network.py watches a build's sockets).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
if [ "${1:-}" != "--test" ]; then
  .venv/bin/python -m pip install --quiet -e .
  exit 0
fi
# The dev group (ruff, mypy, stubs) is not a published extra: pip >= 25.1 installs it (--group).
.venv/bin/python -m pip install --quiet -e ".[test,mcp]" --group dev
if ! command -v node >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
  else
    echo "the JS runtime tests need Node.js >= 18 and npm" >&2
    exit 1
  fi
fi
(cd js && npm install --no-audit --no-fund --silent)
if ! [ -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "the browser tests need Debian's chromium: sudo apt-get install -y chromium (they skip without it)" >&2
  fi
fi
if ! command -v strace >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq strace >/dev/null
  else
    echo "the no-network test needs strace: sudo apt-get install -y strace (it skips without it)" >&2
  fi
fi
