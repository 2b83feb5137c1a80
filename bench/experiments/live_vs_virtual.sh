#!/usr/bin/env bash
# The live experiments next to their virtual-time counterparts, with the same parameters where the simulator can
# express them: FCT p50 and p99, trims and retransmissions of the NDP flows.
#
# 1. Experiment 1 (three flows between two racks over three RATE Gb/s spines, 16-packet trimming queues): live, as
#    ecmp_vs_spraying.sh runs it (NDP sprayed over SPRAY source ports, and on one path); virtual, `trimswitch fabric` with
#    2 leaves x 3 hosts, 3 spines, host and uplink links at RATE, `--routing spray` and `--routing ecmp`, a permutation
#    of PACKETS-packet flows (its flows from rack 0 to rack 1 are counted, as the live ones). Both in frames of MTU + 14
#    bytes (jumbo frames by default, as ecmp_vs_spraying.sh explains).
# 2. Experiment 2's incast, finite: nine NDP senders of PACKETS packets each into one receiver whose switch port runs at
#    RATE with a 12-packet trimming data queue. Live: ten namespace hosts on the interface ports of one `trimswitch run`
#    (as ping_under_incast.sh builds them, senders' ports at SENDER_RATE, 1450-byte payloads: 1514-byte frames); virtual:
#    `trimswitch scenario --pattern incast:9->1` with the same ports: the receiver's at RATE, the senders' at SENDER_RATE
#    (each host pulls and paces at its own port's rate).
# Both use a 30-packet initial window and a 50 ms retransmission timeout. Prints the table and writes
# OUT_DIR/live_vs_virtual.png and OUT_DIR/live_vs_virtual.json.
#
# Usage: sudo bench/experiments/live_vs_virtual.sh [OUT_DIR]   (needs what ecmp_vs_spraying.sh needs, and
# python3-matplotlib; a built cli/target/trimswitch.jar, or TRIMSWITCH set to the command that runs the tool).
# Environment: RATE (0.1), SENDER_RATE (1), PACKETS (1000), SPRAY (64), MTU (9000, experiment 1's), EXP1_DIR (the
# OUT_DIR of an earlier ecmp_vs_spraying.sh run with the same RATE, PACKETS and MTU, instead of running it again).
# Everything it creates is removed on exit, whatever happens.
set -euo pipefail

log() { echo "live-vs-virtual: $*"; }
. "$(cd "$(dirname "$0")" && pwd)/common.sh"

[ $# -le 1 ] || { echo "usage: $(basename "$0") [OUT_DIR]" >&2; exit 2; }
RATE=${RATE:-0.1}
SENDER_RATE=${SENDER_RATE:-1}
for v in RATE SENDER_RATE; do positive "$v" "${!v}"; done
exp1_settings
need_root
need_tools ip ethtool ping iperf3
need_matplotlib
OUT=${1:-$(mktemp -d)}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
# Experiment 1's packets fill its MTU (ecmp_vs_spraying.sh); the incast's interface ports take 1500-byte IP packets:
# 1450 bytes of data in each (1514 bytes on the wire).
INCAST_PAYLOAD=1450
INCAST_BYTES=$((PACKETS * INCAST_PAYLOAD))

TAG="lv$$"
SW="${TAG}sw"
SENDERS=9
HOSTS=(r $(seq -f 's%g' 1 $SENDERS))
trap remove_star EXIT

# 1. Experiment 1, live.
if [ -n "${EXP1_DIR:-}" ]; then
    [ -f "$EXP1_DIR/summary.json" ] || { echo "$(basename "$0"): EXP1_DIR $EXP1_DIR has no summary.json" >&2; exit 2; }
    expected=$(exp1_signature)
    [ "$(cat "$EXP1_DIR/settings.txt" 2>/dev/null)" = "$expected" ] \
        || { echo "$(basename "$0"): EXP1_DIR $EXP1_DIR ran with '$(cat "$EXP1_DIR/settings.txt" 2>/dev/null)', not '$expected'" >&2; exit 2; }
    log "experiment 1, live: from $EXP1_DIR"
    cp -r "$EXP1_DIR" "$OUT/exp1"
else
    log "experiment 1, live: ecmp_vs_spraying.sh"
    RATE=$RATE PACKETS=$PACKETS MTU=$MTU SPRAY=$SPRAY WINDOW=$WINDOW SECONDS_TCP=3 "$here/ecmp_vs_spraying.sh" "$OUT/exp1" > "$OUT/exp1.log" 2>&1 \
        || { cat "$OUT/exp1.log"; log "ecmp_vs_spraying.sh failed" >&2; exit 1; }
fi

# 2. The finite incast, live.
addr() { case $1 in r) echo 10.9.0.1 ;; s*) echo "10.9.0.$((${1#s} + 1))" ;; esac; }
build_star
cat > "$OUT/incast-switch.yaml" <<YAML
mechanism: tofino
fabric:
  dataQueuePackets: 12
trim:
  trimmableDscp: [10]
realtime:
  idle: poll
forwarding:
  mode: l2
metrics:
  address: 127.0.0.1:9464
ports:
  - {rateGbps: $RATE}
$(for _ in $(seq 1 $SENDERS); do echo "  - {rateGbps: $SENDER_RATE}"; done)
YAML
log "experiment 2's incast, live: 9 x $INCAST_BYTES bytes into a $RATE Gb/s port with a 12-packet trimming queue"
start_star_switch incast "$OUT/incast-switch.yaml"
log "warm-up: an unmeasured NDP flow from s1 to r for 2 s"
warm_up r s1 10.9.0.1 "$RATE" 1 "$INCAST_PAYLOAD"
ip netns exec "${TAG}r" $TRIMSWITCH host --listen 10.9.0.1:666 --rate-gbps "$RATE" --payload-bytes $INCAST_PAYLOAD --expect-flows $SENDERS --timeout-s 60 \
    --json "$OUT/incast-receiver.json" > "$OUT/incast-receiver.log" 2>&1 &
RECEIVER=$!
await 60 "the NDP receiver to bind" udp_bound "${TAG}r" 666
PIDS=()
# The nine senders begin together, as in virtual time, once their JVMs have started (about 0.4 s of CPU each).
START=$(start_in 4)
for i in $(seq 1 $SENDERS); do
    ip netns exec "${TAG}s$i" $TRIMSWITCH host --connect 10.9.0.1:666 --size "$INCAST_BYTES" --payload-bytes $INCAST_PAYLOAD \
        --rate-gbps "$SENDER_RATE" --window "$WINDOW" --rto-ms 50 --start-at "$START" --timeout-s 60 --json "$OUT/incast-sender$i.json" > "$OUT/incast-sender$i.log" 2>&1 &
    PIDS+=($!)
done
STATUS=0
for pid in "${PIDS[@]}" "$RECEIVER"; do wait "$pid" || STATUS=$?; done
[ "$STATUS" = 0 ] || { cat "$OUT"/incast-*.log; log "a host exited with $STATUS" >&2; exit 1; }
late_starters "$OUT"/incast-sender*.log
in_sw $TRIMSWITCH stats --json > "$OUT/incast-stats.json"
stop_switch "$SWITCH_PID" "$OUT/incast-switch.log" > /dev/null
uptime > "$OUT/uptime.txt"

# Virtual time: the same two experiments.
cat > "$OUT/fabric.yaml" <<YAML
topology:
  leaves: 2
  spines: 3
  hostsPerLeaf: 3
  hostRateGbps: $RATE
  uplinkRateGbps: $RATE
  linkLatencyNs: 20000
# fabric's links run at one rate both ways: the bottleneck of a flow pair on one spine is leaf 0's uplink, not the
# spine's port down (live, the leaves' uplinks are veths, unlimited); that uplink trims as the live spine's port does.
leaf:
  mechanism: tofino
  fabric: {dataQueuePackets: 16}
spine:                        # as the live spines: DSCP 10 in a 16-packet queue that trims
  mechanism: tofino
  fabric: {dataQueuePackets: 16}
workload:
  kind: permutation
  packets: $PACKETS
  packetBytes: $((MTU + 14))
  seed: 1
transport:
  rtoUs: 50000
  initialWindowPackets: $WINDOW
  maxDurationUs: 4000000
YAML
for routing in spray ecmp; do
    log "experiment 1, virtual: trimswitch fabric --routing $routing"
    $TRIMSWITCH fabric --config "$OUT/fabric.yaml" --routing "$routing" --json "$OUT/fabric-$routing.json" > "$OUT/fabric-$routing.txt"
done
# The live incast's ports: the receiver's (port 0) at RATE, the senders' at SENDER_RATE.
cat > "$OUT/scenario.yaml" <<YAML
mechanism: tofino
fabric:
  portRateGbps: $SENDER_RATE
  dataQueuePackets: 12
ports:
  - {rateGbps: $RATE}
transport:
  initialWindowPackets: $WINDOW
  rtoUs: 50000
  propagationNs: 20000
  maxDurationUs: 4000000
YAML
log "experiment 2's incast, virtual: trimswitch scenario --pattern incast:9->1"
$TRIMSWITCH scenario --config "$OUT/scenario.yaml" --pattern 'incast:9->1' --packets "$PACKETS" --packet-bytes 1514 --no-ideal \
    --json "$OUT/scenario.json" > "$OUT/scenario.txt"

"$PLOT_PYTHON" - "$OUT" "$RATE" "$PACKETS" "$MTU" <<'PY'
import glob, json, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
out, rate, packets, mtu = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])

def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]

rows = []
exp1 = {row["run"]: row for row in json.load(open(f"{out}/exp1/summary.json"))}
for run, routing in (("NDP, sprayed", "spray"), ("NDP, one path", "ecmp")):
    live = exp1[run]
    senders = [json.load(open(f"{out}/exp1/{'ndp-sprayed' if routing == 'spray' else 'ndp-single'}-sender{i}.json"))["flows"][0]
               for i in (1, 2, 3)]
    virtual = json.load(open(f"{out}/fabric-{routing}.json"))
    flows = [f for f in virtual["flows"] if f["src"] < 3]
    # Trims towards rack 1: on the spines' ports down to leaf 1, and on leaf 0's uplinks (its ports after its 3 hosts).
    spine_trims = sum(p["trimPackets"] for s in virtual["switches"] for p in s["ports"]
                      if (s["tier"] == "spine" and p["id"] == 1) or (s["name"] == "leaf0" and p["id"] >= 3))
    rows.append({"experiment": "1: 3 flows, 2 racks, 3 spines", "run": f"{run} ({routing})",
                 "live": {"p50Ms": pct(live["fctMs"], .5), "p99Ms": pct(live["fctMs"], .99), "trims": sum(live["spineTrims"]),
                          "retransmissions": sum(f["retransmissions"] for f in senders)},
                 "virtual": {"p50Ms": pct([f["completionNs"] / 1e6 for f in flows], .5),
                             "p99Ms": pct([f["completionNs"] / 1e6 for f in flows], .99), "trims": spine_trims,
                             "retransmissions": sum(f["retransmissions"] for f in flows)}})
senders = [json.load(open(f))["flows"][0] for f in sorted(glob.glob(f"{out}/incast-sender*.json"))]
stats = {p["port"]: p for p in json.load(open(f"{out}/incast-stats.json"))}[0]
virtual = json.load(open(f"{out}/scenario.json"))
rows.append({"experiment": "2: 9:1 incast, 12-packet queue", "run": "9 NDP senders, 1 receiver",
             "live": {"p50Ms": pct([f["fctUs"] / 1e3 for f in senders], .5), "p99Ms": pct([f["fctUs"] / 1e3 for f in senders], .99),
                      "trims": stats["txTrimPackets"], "retransmissions": sum(f["retransmissions"] for f in senders)},
             "virtual": {"p50Ms": pct([f["completionNs"] / 1e6 for f in virtual["flows"]], .5),
                         "p99Ms": pct([f["completionNs"] / 1e6 for f in virtual["flows"]], .99),
                         "trims": virtual["trims"]["total"], "retransmissions": sum(f["retransmissions"] for f in virtual["flows"])}})
json.dump(rows, open(f"{out}/live_vs_virtual.json", "w"), indent=2)

print(f"NDP flows of {packets} packets, links at {rate} Gb/s (experiment 1: {mtu + 14}-byte frames; 2: 1514-byte ones): "
      "live (namespace hosts, trimswitch run) vs virtual time")
print(f"{'experiment':<32} {'run':<24} {'FCT p50 ms live/virt':>21} {'FCT p99 ms live/virt':>21} {'trims live/virt':>16} {'retx live/virt':>15}")
for r in rows:
    l, v = r["live"], r["virtual"]
    print(f"{r['experiment']:<32} {r['run']:<24} {l['p50Ms']:>10.0f}/{v['p50Ms']:<10.0f} {l['p99Ms']:>10.0f}/{v['p99Ms']:<10.0f} "
          f"{l['trims']:>7}/{v['trims']:<8} {l['retransmissions']:>7}/{v['retransmissions']:<7}")

fig, ax = plt.subplots(figsize=(9, 4.5))
labels = [f"exp {r['experiment'][0]}: {r['run']}" for r in rows]
width = 0.2
for k, (clock, q, color, hatch) in enumerate((("live", "p50Ms", "tab:orange", ""), ("live", "p99Ms", "tab:orange", "//"),
                                               ("virtual", "p50Ms", "tab:blue", ""), ("virtual", "p99Ms", "tab:blue", "//"))):
    xs = [i + (k - 1.5) * width for i in range(len(rows))]
    ax.bar(xs, [r[clock][q] for r in rows], width, color=color, hatch=hatch, edgecolor="black",
           label=f"{clock}, FCT {'median' if q == 'p50Ms' else 'p99'}")
    if clock == "live":
        for x, r in zip(xs, rows):
            ax.annotate(f"{r['live'][q] / r['virtual'][q]:.2f}x", (x, r["live"][q]), ha="center", va="bottom", fontsize=8)
ax.set_xticks(range(len(rows)), labels, fontsize=8)
ax.set_ylabel("flow completion time (ms); above live bars: live / virtual")
ax.set_title(f"NDP flows of {packets} packets at {rate} Gb/s (exp 1: {mtu + 14}-byte frames, exp 2: 1514): live vs virtual time", fontsize=10)
ax.legend(fontsize=8, loc="upper left")
fig.tight_layout()
fig.savefig(f"{out}/live_vs_virtual.png", dpi=110)
PY
log "results in $OUT ($(cat "$OUT/uptime.txt"))"
