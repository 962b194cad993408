#!/usr/bin/env bash
# Builds and tests docs/examples/consumer, the user's project of the README's dependency block,
# with plain `mvn test` (no settings of Troupe's build reach it) against this checkout's artifacts.
#
# The reactor's artifacts go into a throwaway copy of the local repository, never into ~/.m2
# (which other builds on the machine share). Maven fetches what the copy lacks (Maven 3.8's default
# resources plugin needs jars that Troupe's own build never does); -o runs offline instead.
#
# Usage: scripts/check-consumer-pom.sh [-o] [-k]   (-k keeps the work directory and prints it)
set -euo pipefail

offline=() keep=0
for a in "$@"; do
  case "$a" in
    -o) offline=(-o) ;;
    -k) keep=1 ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option: $a (see --help)" >&2; exit 2 ;;
  esac
done

root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d -t troupe-consumer.XXXXXX)"
if [[ $keep == 0 ]]; then trap 'rm -rf "$work"' EXIT; else echo "work directory: $work"; fi

src_repo="${HOME}/.m2/repository"
mkdir -p "$work/repo"
if [[ -d "$src_repo" ]]; then
  # a copy, not links: Maven rewrites metadata files in place
  cp -r "$src_repo/." "$work/repo/"
  rm -rf "$work/repo/dev/troupe"
fi

echo "== installing the BOM, the runtime and the testkit into $work/repo"
mvn -B -q -ntp "${offline[@]}" -f "$root/pom.xml" install -pl bom,actor-runtime,testkit -am \
  -DskipTests -Djacoco.skip=true -Dmaven.javadoc.skip=true -Dmaven.source.skip=true \
  -Dmaven.repo.local="$work/repo"

echo "== mvn test in a copy of docs/examples/consumer ($(mvn -v | head -1 | sed 's/\x1b\[[0-9;]*m//g'))"
cp -r "$root/docs/examples/consumer" "$work/consumer"
mvn -B -ntp "${offline[@]}" -f "$work/consumer/pom.xml" test -Dmaven.repo.local="$work/repo" | tee "$work/consumer.log" | grep -E "Tests run:|BUILD|ERROR" || true
grep -q "Tests run: 1, Failures: 0, Errors: 0" "$work/consumer.log" && grep -q "BUILD SUCCESS" "$work/consumer.log" \
  || { echo "the consumer project did not build and pass its test (log: $work/consumer.log)" >&2; keep=1; trap - EXIT; exit 1; }
echo "the README's dependency block builds and runs a JUnit 5 test with plain mvn"
