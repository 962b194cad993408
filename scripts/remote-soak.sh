#!/usr/bin/env bash
# Runs the remoting fuzz and soak harness (remoting's RemoteSoakTest) for a long time and prints its
# summary. See --help.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/remote-soak.sh [options] [-- extra Maven arguments]

Attacks a Troupe node for a long time and checks that its legitimate peer loses nothing.

A victim node runs in a JVM of its own (-Xmx128m, ulimit -n 256, remoting on 127.0.0.1, port 0)
with /user/echo, /user/watched and one never-named actor per second. A legitimate peer asks
/user/echo at a steady rate, watches /user/watched, and every second looks up a never-named
actor, asks it, watches it and stops it. Adversaries attack at the same time, each bounded in
rate and count:

  random     random bytes, sometimes behind a plausible frame length
  frames     valid handshake, then envelopes with guessed string-table refs (out of the table,
             overflowing varints, oversized strings), serializer ids, manifests and payloads,
             one in five behind a guessed trace context (any length, any bytes)
  addresses  envelopes whose sender paths each name a new node (500/s), new origin ports
  selection  /*/../*/.. x depth/nope selections through a Troupe system's public API (1 per 5 s)
  nested     one 256 KiB frame of Identify nested ~37,000 deep (1 per 2 s)
  identity   handshakes with random origins and uids, then a heartbeat and a LEAVING notice;
             half name a port the harness listens on: the victim must never dial it
  spoof      handshakes claiming the legitimate peer's address with a random uid, and LEAVING
  churn      connections opened, given a byte, dropped; up to 240 idle ones held open, half
             trickling a frame a byte at a time, half idle after a handshake
  traced     user messages behind the trace-context code (20/s): well-formed ones (W3C, with a
             tracestate, 512 bytes, non-ASCII) must all be echoed to a sink; malformed ones
             (over 512 bytes, overflowing or cut varints, cut contexts) must close the connection

The verdict (the run fails if any item fails): no legitimate ask lost or answered wrongly;
their p99 latency under --max-p99; every never-named actor found, answered, its death heard;
no Terminated for the watched actor; the victim's live heap (after a full GC) late in the run
within --heap-margin MiB of the warm-up's, its open fds within --fd-margin of the warm-up's;
its -remote-io- threads alive; no Error in its output; a new peer can use it at the end.
A summary table is printed either way (also remoting/target/remote-soak-summary.txt).

Options:
  -d, --duration D       how long the adversaries attack (HOCON duration: 30m, 2h)   [30m]
  -a, --adversaries L    comma-separated names from the list above, "all" or "none"  [all]
  -w, --warmup D         the legitimate peer alone first, for the baseline           [30s]
  -r, --ask-rate N       legitimate asks a second                                    [50]
      --ask-timeout D    an ask not answered within this is lost                     [5s]
      --max-p99 D        highest tolerated p99 of the asks' latency                  [1s]
      --heap-margin N    MiB the victim's live heap may grow                         [24]
      --fd-margin N      fds the victim may gain (its connection cap, once it has one) [64]
      --victim-heap S    the victim's -Xmx                                           [128m]
      --fd-limit N       the victim's ulimit -n                                      [256]
      --seed N           seed of the adversaries' random choices                      [now]
  -V, --victim K=V       configuration of the victim node, repeatable, e.g.
                         -V troupe.remote.advanced.handshake-timeout=2s
  -h, --help             this text

Anything after -- goes to Maven as is, e.g. -- -Dtroupe.soak.selection.depth=20
  -Dtroupe.soak.churn.idle=100 -Dtroupe.soak.addresses.rate=100 -Dtroupe.soak.nested.count=10
(per adversary: troupe.soak.<name>.rate = operations a second, troupe.soak.<name>.count = in all).

The suite runs the same test for 20 s with the adversaries today's node survives (random,frames);
this script defaults to all of them for 30 minutes. It needs bash, Java 17 and Maven, and builds
what it needs with -am (nothing is installed). Exit status: Maven's (0 = the verdict passed).
EOF
}

duration=30m
adversaries=all
props=()
maven=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    -d|--duration) duration="$2"; shift 2 ;;
    -a|--adversaries) adversaries="$2"; shift 2 ;;
    -w|--warmup) props+=("-Dtroupe.soak.warmup=$2"); shift 2 ;;
    -r|--ask-rate) props+=("-Dtroupe.soak.ask-rate=$2"); shift 2 ;;
    --ask-timeout) props+=("-Dtroupe.soak.ask-timeout=$2"); shift 2 ;;
    --max-p99) props+=("-Dtroupe.soak.max-p99=$2"); shift 2 ;;
    --heap-margin) props+=("-Dtroupe.soak.heap-margin-mib=$2"); shift 2 ;;
    --fd-margin) props+=("-Dtroupe.soak.fd-margin=$2"); shift 2 ;;
    --victim-heap) props+=("-Dtroupe.soak.victim-heap=$2"); shift 2 ;;
    --fd-limit) props+=("-Dtroupe.soak.victim-fd-limit=$2"); shift 2 ;;
    --seed) props+=("-Dtroupe.soak.seed=$2"); shift 2 ;;
    -V|--victim)
      [[ "$2" == *=* ]] || { echo "remote-soak: --victim wants KEY=VALUE, got '$2'" >&2; exit 2; }
      props+=("-Dtroupe.soak.victim.$2"); shift 2 ;;
    --) shift; maven=("$@"); break ;;
    *) echo "remote-soak: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
# A warm-up of 30 s unless one was given: the baseline wants a few forced collections.
[[ " ${props[*]-} " == *" -Dtroupe.soak.warmup="* ]] || props+=("-Dtroupe.soak.warmup=30s")

cd "$(dirname "$0")/.."
summary=remoting/target/remote-soak-summary.txt
rm -f "$summary"
echo "remote-soak: attacking for $duration with: $adversaries (summary in $summary)" >&2
status=0
mvn -B -q -ntp -pl remoting -am test \
  -Dtest=RemoteSoakTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dtroupe.soak.duration="$duration" -Dtroupe.soak.adversaries="$adversaries" \
  ${props[@]+"${props[@]}"} ${maven[@]+"${maven[@]}"} || status=$?
if [[ -f "$summary" ]]; then
  cat "$summary"
else
  echo "remote-soak: no summary was written; see remoting/target/surefire-reports/" >&2
fi
exit "$status"
