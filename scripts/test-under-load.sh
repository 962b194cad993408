#!/usr/bin/env bash
# Runs module test suites repeatedly while busy processes hog every core, the way a CI machine is
# never quiet. A test that fails here assumes an order or a timing the runtime does not promise
# (or has found a real race): fix it, do not retry it.
#
#   scripts/test-under-load.sh [runs] [modules]
#   scripts/test-under-load.sh 3 executors,actor-runtime,actor-tests     # the defaults
#
# Each run's log is kept under target/under-load/; the surefire reports of a failed run are copied
# next to it. Exit code: the number of failed runs (0 = all green).
set -uo pipefail
cd "$(dirname "$0")/.."

runs=${1:-3}
modules=${2:-executors,actor-runtime,actor-tests}
hogs=${HOGS:-$(nproc)}
out=target/under-load
mkdir -p "$out"

pids=()
for _ in $(seq 1 "$hogs"); do
  ( while :; do :; done ) &
  pids+=($!)
done
trap 'kill "${pids[@]}" 2>/dev/null' EXIT

failed=0
for i in $(seq 1 "$runs"); do
  start=$(date +%s)
  if mvn -B -ntp -pl "$modules" -am test -Djcstress.skip > "$out/run$i.log" 2>&1; then
    verdict=green
  else
    verdict=RED
    failed=$((failed + 1))
    for m in ${modules//,/ }; do
      [ -d "$m/target/surefire-reports" ] && mkdir -p "$out/run$i/$m" && cp -r "$m/target/surefire-reports" "$out/run$i/$m/"
    done
  fi
  echo "run $i of $runs: $verdict in $(( $(date +%s) - start )) s with $hogs hogs"
  grep -E "Tests run:.*(Failures: [1-9]|Errors: [1-9])|<<< (FAILURE|ERROR)" "$out/run$i.log" | sort -u
done
exit "$failed"
