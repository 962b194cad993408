#!/usr/bin/env bash
# Measures the cluster's failure handling and idle cost with whole nodes in child JVMs (the
# cluster's ClusterMeasure main) and prints the table. See --help.
set -euo pipefail

usage() {
  cat <<'HELP'
Usage: scripts/cluster-measure.sh [rounds] [idle-seconds]

Starts Troupe cluster nodes (actor system, remoting, the JGroups engine) as child JVMs on 127.0.0.1
with the default settings (heartbeat 1 s, acceptable pause 5 s, stable-after 7 s, keep-majority)
and measures, each round:

  join      five nodes started one after the other: from a node's join until every node has it Up
  kill -9   the youngest killed: until every other node has removed it
  SIGSTOP   the next youngest stopped: until every other node has removed it; then SIGCONT and
            how long it takes to shut itself down
  idle      a settled 3-node cluster: CPU (% of a core, /proc/<pid>/stat) and context switches per
            second (summed over /proc/<pid>/task/*) per node for idle-seconds, next to three bare
            remote systems (troupe.actor.provider = remote)

Prints each round, then a Markdown table with the median and max of each measure.

  rounds         rounds to run                         [3]
  idle-seconds   how long each idle sample lasts       [20]

Needs Linux (/proc, kill, getconf), bash, Java 17 and Maven; builds what it needs with -am
(nothing is installed). The numbers depend on the machine's load: say what else ran.
HELP
}

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
rounds="${1:-3}"
idle="${2:-20}"

cd "$(dirname "$0")/.."
mvn -B -q -ntp -pl cluster -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test -Djacoco.skip=true
cp="cluster/target/test-classes:cluster/target/classes:$(cat cluster/target/test-classpath.txt)"
exec java -Xmx256m -cp "$cp" dev.troupe.cluster.internal.core.ClusterMeasure "$rounds" "$idle"
