#!/usr/bin/env bash
# Runs the cluster's partition soak (cluster's PartitionSoak, test class path). See --help.
set -euo pipefail

usage() {
  cat <<'USAGE'
Usage: scripts/cluster-partition-soak.sh [-n RUNS] [-s SEED] [--fast] [-c KEY=VALUE]... [--no-build]

Cuts the network of a five-node Troupe cluster (JGroups engine and remoting, 127.0.0.1, one JVM)
RUNS times, each a fresh cluster and a random split with equal chance:
  1|4   one node against four
  2|3   two against three
  2|2   one node leaves gracefully first, then the four left split two against two
Each run cuts both the engine's traffic (JGroups DISCARD) and remoting's (its failure injector)
between the sides, waits (at most 90 s) until one side holds exactly its own members and the
other side's systems have all terminated, checks that it is the side keep-majority keeps (the
larger, or on a tie the one with the lowest address), heals, and checks that nothing changes.

Prints one line per run (the sides by remoting port, * = the side that stayed; the time from the
cut to the decision) and a summary; the whole output also goes to cluster/target/partition-soak.log.

Options:
  -n, --runs N     runs                                                   [50]
  -s, --seed N     seed of the random splits                              [now]
      --fast       the partition test's timings (heartbeat 300 ms, pause 2.5 s, stable-after 3 s)
                   instead of reference.conf's (1 s, 5 s, 7 s)
  -c, --config K=V a setting of every node, repeatable, e.g. -c troupe.remote.advanced.inbound-lanes=4
      --no-build   use what the last build left (cluster/target/test-classpath.txt)
  -h, --help       this text

It needs bash, Java 17 and Maven, and builds what it needs with -am (nothing is installed).
Exit status: 0 when no run was a split brain, lost the cluster, kept the wrong side or changed
after the heal.
USAGE
}

runs=50
seed=$(date +%s)
timings=default
build=yes
config=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    -n|--runs) runs="$2"; shift 2 ;;
    -s|--seed) seed="$2"; shift 2 ;;
    --fast) timings=fast; shift ;;
    -c|--config)
      [[ "${2-}" == *=* ]] || { echo "cluster-partition-soak: --config wants KEY=VALUE, got '${2-}'" >&2; exit 2; }
      config+="$2"$'\n'; shift 2 ;;
    --no-build) build=no; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
done

cd "$(dirname "$0")/.."
if [[ "$build" == yes ]]; then
  mvn -B -q -ntp -pl cluster -am test-compile dependency:build-classpath \
    -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test -Djacoco.skip=true
fi
cp="cluster/target/test-classes:cluster/target/classes:$(cat cluster/target/test-classpath.txt)"
log=cluster/target/partition-soak.log
[[ -z "$config" ]] || echo "nodes' own settings: $(echo -n "$config" | tr '\n' ' ')"
set +e
java -Xmx1g -Dtroupe.soak.config="$config" -cp "$cp" dev.troupe.cluster.internal.core.PartitionSoak "$runs" "$seed" "$timings" 2>&1 \
  | tee "$log" | grep --line-buffered '^soak: ' | sed -u 's/^soak: //'
status=${PIPESTATUS[0]}
set -e
echo "(full output with the nodes' warnings: $log)"
exit "$status"
