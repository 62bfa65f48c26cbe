#!/usr/bin/env bash
# Sets up everything (venv, chromium, strace) and runs the whole suite: lint and types (ruff, mypy:
# settings in pyproject.toml; any finding fails the run), pytest (Python, parity, real-browser; in
# PYTEST_WORKERS processes, default 2, through pytest-xdist) and node --test (JS runtime).
# Every stage runs even when one before it failed; one summary of all of them comes last, and the
# exit status is non-zero when any failed. Arguments go to pytest (`scripts/test.sh -m "not slow"`).
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test || exit
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
names=() codes=() seconds=() lines=()

# stage NAME COMMAND...: run it, its output shown as it comes and kept for the summary line.
stage() {
  local name=$1 start=$SECONDS
  shift
  echo "=== $name: $*"
  "$@" 2>&1 | tee "$logs/$name"
  codes+=("${PIPESTATUS[0]}")
  names+=("$name")
  seconds+=($((SECONDS - start)))
  case $name in  # the stage's own count of what passed and failed
    pytest) lines+=("$(grep -E '^=+ .* in [0-9.]+s' "$logs/$name" | tail -1 | tr -d '=' | xargs)") ;;
    node) lines+=("$(grep -E '^# (pass|fail|skipped|cancelled) ' "$logs/$name" | tr -d '#' | xargs)") ;;
    *) lines+=("$(grep -vE '^\s*$' "$logs/$name" | tail -1)") ;;
  esac
}

stage ruff .venv/bin/ruff check .
stage mypy .venv/bin/mypy
stage pytest .venv/bin/python -m pytest -n "${PYTEST_WORKERS:-2}" "$@"
stage node bash -c 'cd js && node --test test/'

echo "=== summary"
failed=0
for i in "${!names[@]}"; do
  case ${names[$i]}:${codes[$i]} in
    *:0) verdict=ok ;;
    pytest:5) verdict="FAILED (no tests ran: exit 5)" ;;  # nothing collected is no pass
    *) verdict="FAILED (exit ${codes[$i]})" ;;
  esac
  [ "${codes[$i]}" = 0 ] || failed=1
  printf '%-6s %-30s %5ss  %s\n' "${names[$i]}" "$verdict" "${seconds[$i]}" "${lines[$i]}"
done
exit $failed
