#!/usr/bin/env bash
# Creates .venv (if missing) and installs the project editable with its test extras.
# Usage: scripts/setup.sh [--browser]   (--browser also installs Debian's chromium, as root)
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[test]"
if ! command -v node >/dev/null 2>&1; then
  echo "node is required for the JS runtime tests: install Node.js >= 18" >&2
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq nodejs; fi
fi
# The runtime has no dependencies; typescript only type-checks its JSDoc in the test suite.
(cd js && npm install --no-audit --no-fund --silent)
if [ "${1:-}" = "--browser" ] && ! [ -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "browser tests need Debian's chromium: sudo apt-get install -y chromium" >&2
  fi
fi
