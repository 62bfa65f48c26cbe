#!/usr/bin/env bash
# Sets up everything (venv, chromium, strace) and runs the whole suite: lint and types (ruff, mypy:
# settings in pyproject.toml; any finding fails the run), pytest (Python, parity, real-browser; in
# PYTEST_WORKERS processes, default 2, through pytest-xdist) and node --test (JS runtime).
# Every stage runs even when another failed (ruff, mypy and node beside pytest, their output shown
# after its); one summary of all of them comes last, and the exit status is non-zero when any
# failed. Arguments go to pytest (`scripts/test.sh -m "not slow"`).
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
  record "$name" "${PIPESTATUS[0]}" $((SECONDS - start))
}

# beside NAME COMMAND...: start it in the background, its output kept; `joined NAME` shows it.
# Lint, types and the JS suite run beside pytest: pytest's processes leave a core idle while a
# browser test waits on the page or a test waits on a subprocess.
beside() {
  local name=$1
  shift
  echo "$*" >"$logs/$name.command"
  (start=$SECONDS; "$@" >"$logs/$name" 2>&1; echo "$? $((SECONDS - start))" >"$logs/$name.status") &
  echo $! >"$logs/$name.pid"
}

# joined NAME: wait for a stage started by `beside`, show its output and record it.
joined() {
  local name=$1 code took
  wait "$(cat "$logs/$name.pid")"
  read -r code took <"$logs/$name.status"
  echo "=== $name: $(cat "$logs/$name.command")"
  cat "$logs/$name"
  record "$name" "$code" "$took"
}

# record NAME CODE SECONDS: a finished stage's verdict and its own count of what passed and failed.
record() {
  local name=$1
  codes+=("$2")
  names+=("$name")
  seconds+=("$3")
  case $name in
    pytest) lines+=("$(grep -E '^=+ .* in [0-9.]+s' "$logs/$name" | tail -1 | tr -d '=' | xargs)") ;;
    node) lines+=("$(grep -E '^# (pass|fail|skipped|cancelled) ' "$logs/$name" | tr -d '#' | xargs)") ;;
    *) lines+=("$(grep -vE '^\s*$' "$logs/$name" | tail -1)") ;;
  esac
}

beside ruff .venv/bin/ruff check .
beside mypy .venv/bin/mypy
beside node bash -c 'cd js && node --test test/'
stage pytest .venv/bin/python -m pytest -n "${PYTEST_WORKERS:-2}" "$@"
joined ruff
joined mypy
joined node

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
# One closing line over both test runners (pytest's and node's counts added up).
count() { grep -oE "[0-9]+ $1" "$logs/pytest" | tail -1 | cut -d' ' -f1; }
passed=$(( $(count passed || true) + 0 + $(grep -E '^# pass ' "$logs/node" | awk '{print $3}' || echo 0) + 0 ))
failures=$(( $(count failed || true) + 0 + $(count error || true) + 0 + $(grep -E '^# fail ' "$logs/node" | awk '{print $3}' || echo 0) + 0 ))
echo "suite: $passed passed, $failures failed"
exit $failed
