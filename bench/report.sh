#!/usr/bin/env bash
# Runs the short profile of the whole benchmark suite and writes bench/results/RESULTS.md.
#
# Builds nothing: build the jar first with
#   mvn -pl bench -am package -DskipTests
# then, from anywhere:
#   bench/report.sh
#
# Profile: two forks, each 2 warmup + 2 measurement iterations of 1 s (-f 2 -wi 2 -w 1s -i 2 -r 1s),
# and a parameter subset per benchmark instead of the full grids in the classes' @Param lists
# (the full PingPongThroughput grid alone is 150 combinations). Two short forks rather than one
# longer one: a fork's rate can sit in a slow phase between young collections (the collector's
# copy order can put an object one thread writes on a line another thread reads; see
# ExecutorComparison's javadoc), and only a second fork shows it. Each combination costs about 12 s
# (8 s of iterations, ~4 s of JVM forks, system start and stop); the subsets below are ~115
# combinations, about 22 minutes on a 2-core machine (budget: 25 minutes):
#   PingPongThroughput   33  pairs sweep at throughput 20; throughput sweep at 4 pairs; inFlight 1 vs 10
#   RoundTripLatency      5  all implementations, 3 measurement iterations per fork
#   RemotePingPong        8  troupe,pekko x pairs 1,8 x inFlight 1,100 (two remoting systems, loopback)
#   ExecutorComparison   24  troupe,pekko x 3 executors x throughput 1,5,20,100; 100k queries/pair
#                            (pekko-tuned is the same run as pekko on 2 cores: both use 2 threads)
#   ExecutorAlone         9  3 executors x balanced/skewed/overloadedStripe
#   ActorCreation         9  create10k/create100k; retained heap with 200k idle actors (single shot)
#   RouterOverhead       12  direct, round-robin pools of 1 and 4, balancing pool of 4
#   Savina               18  Counting ThreadRing Chameneos Big ForkJoinThroughput ForkJoinCreate
# For publishable numbers use the full grids and -f 2 -wi 3 -i 5 (see each class's javadoc).
#
# Output: bench/results/raw-<part>.json (one JMH run each), merged into bench/results/raw.json;
# bench/results/RESULTS.md and bench/results/charts/*.png; the JMH console log in jmh.log.
# Extra arguments are passed to every JMH run (e.g. -jvmArgsAppend -XX:+UseParallelGC).
#
# Environment: PARTS="latency savina" runs only those parts (names as in the run lines below; the
# report then covers only them); QUICK=1 shrinks every part to one 1 s iteration without warmup,
# to check the pipeline end to end (about 5 minutes; the numbers are not meaningful).
set -uo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
JAR=bench/target/benchmarks.jar
OUT=bench/results
if [[ ! -f "$JAR" ]]; then
  echo "missing $JAR: run 'mvn -pl bench -am package -DskipTests' first" >&2
  exit 1
fi
mkdir -p "$OUT"
rm -f "$OUT"/raw-*.json "$OUT"/raw.json "$OUT"/jmh.log "$OUT"/charts/*.png

COMMON=(-f 2 -wi 2 -w 1s -i 2 -r 1s)
LATENCY=(-f 2 -wi 2 -w 1s -i 3 -r 1s)
HEAP=(-f 1 -wi 1 -i 2)
if [[ "${QUICK:-0}" == 1 ]]; then
  COMMON=(-f 1 -wi 0 -i 1 -r 1s)
  LATENCY=("${COMMON[@]}")
  HEAP=(-f 1 -wi 0 -i 1)
fi
COMMANDS=""
FAILED=0

run() {
  local part="$1"
  shift
  if [[ -n "${PARTS:-}" && " $PARTS " != *" $part "* ]]; then
    return 0
  fi
  local cmd=(java -jar "$JAR" "$@" "${EXTRA[@]}" -rf json -rff "$OUT/raw-$part.json")
  COMMANDS+="${cmd[*]}"$'\n'
  echo "=== [$part] ${cmd[*]}" | tee -a "$OUT/jmh.log"
  if ! "${cmd[@]}" 2>&1 | tee -a "$OUT/jmh.log"; then
    echo "=== [$part] JMH exited with an error; continuing" | tee -a "$OUT/jmh.log"
    FAILED=1
  fi
}

EXTRA=("$@")
START=$(date +%s)

# JMH rejects an option given twice, so each part spells out its iteration options.
C=("${COMMON[@]}")
run pingpong-pairs      PingPongThroughput "${C[@]}" -p pairs=1,2,4,8,64 -p throughput=20 -p inFlight=10
run pingpong-throughput PingPongThroughput "${C[@]}" -p pairs=4 -p throughput=1,5,100,200 -p inFlight=10
run pingpong-inflight   PingPongThroughput "${C[@]}" -p pairs=1,64 -p throughput=20 -p inFlight=1
run latency             RoundTripLatency "${LATENCY[@]}"
run remote              RemotePingPong "${C[@]}"
run executors           ExecutorComparison "${C[@]}" -p impl=troupe,pekko -p queriesPerPair=100000
run executor-alone      ExecutorAlone "${C[@]}"
run creation            'ActorCreation.create' "${C[@]}" -p impl=troupe,pekko,pekko-tuned
run creation-heap       'ActorCreation.retainedHeapPerIdleActor' "${HEAP[@]}" -p idleActors=200000 -p impl=troupe,pekko,pekko-tuned
run router              RouterOverhead "${C[@]}"
run savina              '\.(Counting|ThreadRing|Chameneos|Big|ForkJoinThroughput|ForkJoinCreate)\.' "${C[@]}"

echo "suite took $(( $(date +%s) - START )) s" | tee -a "$OUT/jmh.log"

shopt -s nullglob
RAW=("$OUT"/raw-*.json)
if (( ${#RAW[@]} == 0 )); then
  echo "no results to report" >&2
  exit 1
fi
java -cp "$JAR" dev.troupe.bench.report.ReportMain --out "$OUT" --command "$COMMANDS" "${RAW[@]}" || FAILED=1
exit $FAILED
