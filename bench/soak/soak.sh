#!/usr/bin/env bash
# A soak of the live switch on interface ports: three Linux hosts in network namespaces, each on a veth straight to a
# switch port. Every 10 s cycle carries a TCP burst (iperf3, host 0 to host 2) and a flood of 64-byte UDP datagrams
# (`trimswitch gen send`, host 2 to host 1) for BURST_SECONDS, then lets the switch drain. At the end of each cycle it
# samples the switch's resident memory and its counters (`trimswitch stats --json`), and checks the counters' identity
# over all ports: received + flood copies = sent + dropped, the kernel's ring overflow counted apart (identity.py).
# At the end it says whether the goals held:
#   - RSS after the first minute stays within +-16 MiB of its value at minute 1;
#   - the identity is exact at every sample;
#   - no drop reason appeared but the kernel's overflow.
#
# Usage, as root, from the repository after `./mvnw -B -q package -DskipTests`:
#   bench/soak/soak.sh [SECONDS]          # default 600; 120 for a short run
# Settings: FLOOD_RATE (datagrams/s, default 20000), BURST_SECONDS (default 7), TRIMSWITCH (default cli/trimswitch).
# Needs iproute2, iperf3, socat, bc and python3. Everything it creates (namespaces tc-soak-*) is removed on exit.
set -euo pipefail

SECONDS_TOTAL=${1:-600}
FLOOD_RATE=${FLOOD_RATE:-20000}
BURST_SECONDS=${BURST_SECONDS:-7}
CYCLE=10
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
repo=$(CDPATH= cd -- "$here/../.." && pwd)
TRIMSWITCH=${TRIMSWITCH:-$repo/cli/trimswitch}
TAG=tc-soak
SW="$TAG-sw"

log() { echo "soak: $*"; }
# shellcheck source=../../cli/src/test/sh/common.sh
. "$repo/cli/src/test/sh/common.sh"
trap cleanup EXIT
WORK=$(mktemp -d)

[ "$(id -u)" = 0 ] || { log "needs root (network namespaces)" >&2; exit 2; }
case "$SECONDS_TOTAL" in ''|*[!0-9]*) log "SECONDS must be a whole number of seconds, got '$SECONDS_TOTAL'" >&2; exit 2;; esac
[ "$SECONDS_TOTAL" -ge 60 ] || { log "SECONDS must be at least 60: RSS is compared from minute 1 on" >&2; exit 2; }

in_sw() { ip netns exec "$SW" "$@"; }
in_host() { local host=$1; shift; ip netns exec "$TAG-h$host" "$@"; }

add_namespace "$SW"
for i in 0 1 2; do
    add_namespace "$TAG-h$i"
    wire_host "$SW" "$TAG-h$i" "$TAG-p$i" "10.77.0.$((i + 1))"
done

log "starting the switch"
start_switch "$SW" "$WORK/switch.log" 3 --idle poll --metrics off -i "0@$TAG-p0" -i "1@$TAG-p1" -i "2@$TAG-p2"
PID=$SWITCH_PID
ping_every_pair "$TAG-h0=10.77.0.1" "$TAG-h1=10.77.0.2" "$TAG-h2=10.77.0.3"
in_host 2 iperf3 -s > "$WORK/iperf3-server.log" 2>&1 &
await 10 "iperf3 listening" tcp_listening "$TAG-h2" 5201
# The flood's sink: a socket bound to its port, so that host 1 answers no "port unreachable".
in_host 1 socat -u UDP-RECV:9,bind=10.77.0.2 /dev/null &
await 10 "the flood's sink bound" udp_bound "$TAG-h1" 9

rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$PID/status"; }
stats() { in_sw "$TRIMSWITCH" stats --json; }
# Waits (up to 5 s) until two readings 0.2 s apart agree: nothing is left inside the switch.
drained() {
    local before after
    before=$(stats | python3 "$here/identity.py" -)
    for _ in $(seq 1 25); do
        sleep 0.2
        after=$(stats | python3 "$here/identity.py" -)
        [ "$before" = "$after" ] && return 0
        before=$after
    done
    return 0
}

printf '%6s %9s  %s\n' "time_s" "rss_MiB" "identity" | tee "$WORK/samples.txt"
started=$(date +%s)
identity_failures=0
reasons=""
while :; do
    elapsed=$(( $(date +%s) - started ))
    [ "$elapsed" -lt "$SECONDS_TOTAL" ] || break
    cycle_start=$(date +%s)
    in_host 0 iperf3 -c 10.77.0.3 -t "$BURST_SECONDS" > "$WORK/iperf3.log" 2>&1 &
    tcp=$!
    in_host 2 "$TRIMSWITCH" gen send --to 10.77.0.2:9 --size 64 --rate "$FLOOD_RATE" --count $((FLOOD_RATE * BURST_SECONDS)) --dscp 0 \
        > "$WORK/flood.log" 2>&1 &
    flood=$!
    wait "$tcp" || { cat "$WORK/iperf3.log"; log "iperf3 failed" >&2; exit 1; }
    wait "$flood" || { cat "$WORK/flood.log"; log "the flood's sender failed" >&2; exit 1; }
    still_running "$PID" "$WORK/switch.log" "the switch"
    drained
    stats > "$WORK/stats.json"
    line=$(python3 "$here/identity.py" "$WORK/stats.json" --exact) || identity_failures=$((identity_failures + 1))
    other=$(python3 -c 'import json,sys
r=set()
for p in json.load(open(sys.argv[1])):
    r.update(k for k in p.get("drops", {}) if k not in ("ringOverflow", "socketOverflow"))
print(",".join(sorted(r)))' "$WORK/stats.json")
    [ -z "$other" ] || reasons="$other"
    printf '%6d %9.1f  %s\n' "$(( $(date +%s) - started ))" "$(echo "$(rss_kib) / 1024" | bc -l)" "$line" | tee -a "$WORK/samples.txt"
    rest=$(( CYCLE - ($(date +%s) - cycle_start) ))
    [ "$rest" -le 0 ] || sleep "$rest"
done

log "last counters:"
in_sw "$TRIMSWITCH" stats
python3 - "$WORK/samples.txt" <<'PY'
import sys
rows = [line.split(None, 2) for line in open(sys.argv[1]).read().splitlines()[1:]]
samples = [(int(t), float(rss)) for t, rss, _ in rows]
after = [rss for t, rss in samples if t >= 60]
base = after[0] if after else samples[-1][1]
low, high = min(after or [base]), max(after or [base])
ok = high - base <= 16 and base - low <= 16
print(f"soak: RSS at minute 1 {base:.1f} MiB, after it {low:.1f}..{high:.1f} MiB "
      f"({low - base:+.1f}/{high - base:+.1f}): {'within' if ok else 'NOT within'} +-16 MiB")
PY
if [ "$identity_failures" = 0 ]; then
    log "identity exact at every sample"
else
    log "identity NOT exact at $identity_failures samples"
fi
if [ -z "$reasons" ]; then
    log "no drop reason but the kernel's overflow"
else
    log "drop reasons other than overflow: $reasons"
fi
