"""The tables of bench/hosts/port_rate_bench.sh from its trials' lines: medians over the rounds, where the frames went
(sums over the rounds), and the ratios between the port kinds and their C baselines.

    python3 bench/hosts/port_rate_table.py RESULTS MODES RATES XDP_SWITCH
"""
import collections
import statistics
import sys

import trials

NAMES = {"direct": "veth direct (no forwarder)", "bridge": "Linux bridge", "afpacket": "C AF_PACKET forwarder",
         "afxdp": "C AF_XDP forwarder", "trimswitch": "trimswitch, af_packet", "trimswitch-xdp": "trimswitch, af_xdp",
         "baseline": "baseline build, af_packet", "baseline-xdp": "baseline build, af_xdp"}
SENT, SECONDS, HANDED, REFUSED, FORWARDED, RECEIVED, SINK_DROPS, CPU, DROPS_BEFORE, DROPS_AFTER = range(10)


def drops(text):
    return collections.Counter({} if text in ("-", "none") else
                               {reason: int(count) for reason, count in (item.split("=") for item in text.split(","))})


def switch_drops(row):
    """The switch's own drops during this load, by reason."""
    if row[DROPS_BEFORE] == "-":
        return None
    return drops(row[DROPS_AFTER]) - drops(row[DROPS_BEFORE])


def median(rows, key, value):
    figures = [value(row) for row in rows.get(key, [])]
    figures = [f for f in figures if f is not None]
    return statistics.median(figures) if figures else None


def show(figure, form):
    return "n/a" if figure is None else format(figure, form)


def spread(rows, key, value, form):
    """The median and, over several rounds, the range: "80.3 (40.1-120.0)"."""
    figures = sorted(f for f in (value(row) for row in rows.get(key, [])) if f is not None)
    if len(figures) < 2:
        return show(median(rows, key, value), form)
    return f"{format(statistics.median(figures), form)} ({format(figures[0], form)}-{format(figures[-1], form)})"


def main(path, modes, rates, xdp_switch):
    rows = trials.load(path)
    modes = modes.split()
    kpps = lambda column: lambda row: int(row[column]) / float(row[SECONDS]) / 1e3
    cpu = lambda row: None if row[CPU] == "-" else float(row[CPU])
    share = lambda row: int(row[RECEIVED]) / int(row[SENT]) * 100
    print(f"\nmax load: medians of {len(rows.get(modes[0] + '@max', []))} rounds; frames/s in thousands; "
          "outran: the forwarder passed on less than 95 % of what the generator sent")
    print(f"{'forwarder':<28}{'generator':>10}{'to port 0':>10}{'forwarded (range)':>24}{'received':>10}{'outran':>8}"
          f"{'CPU µs/frame (range)':>24}   lost over all rounds: refused by the veth / the switch's own count / neither")
    for mode in modes:
        key = f"{mode}@max"
        if key not in rows:
            print(f"{NAMES[mode]:<28}{'n/a':>10}")
            continue
        sent, forwarded = median(rows, key, kpps(SENT)), median(rows, key, kpps(FORWARDED))
        total = lambda column: sum(int(row[column]) for row in rows[key])
        lost, refused = total(SENT) - total(FORWARDED), total(REFUSED)
        counted = [switch_drops(row) for row in rows[key]]
        if counted[0] is None:
            account = f"{lost} lost: {refused} / - / -"
        else:
            reasons = sum(counted, collections.Counter())
            named = ",".join(f"{r}={c}" for r, c in sorted(reasons.items())) or "0"
            account = f"{lost} lost: {refused} / {named} / {lost - refused - sum(reasons.values())}"
        print(f"{NAMES[mode]:<28}{sent:>10.1f}{median(rows, key, kpps(HANDED)):>10.1f}"
              f"{spread(rows, key, kpps(FORWARDED), '.1f'):>24}{median(rows, key, kpps(RECEIVED)):>10.1f}"
              f"{'yes' if forwarded < 0.95 * sent else 'no':>8}{spread(rows, key, cpu, '.2f'):>24}   {account}")
    print("\nfixed offered loads: CPU µs per forwarded frame / delivered share (received by the sink over sent) / what the"
          " generator offered in thousands a second, medians; TCP as the hosts send it and with their checksum offload off;"
          " ping with it off")
    print(f"{'forwarder':<28}" + "".join(f"{rate + ' frames/s':>34}" for rate in rates.split())
          + f"{'TCP Gb/s':>10}{'no offload':>12}{'ping p50 ms':>13}")
    for mode in modes:
        line = f"{NAMES[mode]:<28}"
        for rate in rates.split():
            key = f"{mode}@{rate}"
            line += (f"{show(median(rows, key, cpu), '.2f')} / {show(median(rows, key, share), '.1f')} %"
                     f" / {show(median(rows, key, kpps(SENT)), '.1f')}").rjust(34)
        line += f"{show(median(rows, mode + '@tcp', lambda row: float(row[0])), '.2f'):>10}"
        line += f"{show(median(rows, mode + '@tcpoff', lambda row: float(row[0])), '.2f'):>12}"
        line += f"{show(median(rows, mode + '@tcpoff', lambda row: float(row[2])), '.4f'):>13}"
        print(line)

    def ratio(a, b, load, value, form=".2f"):
        x, y = median(rows, f"{a}@{load}", value), median(rows, f"{b}@{load}", value)
        return "n/a" if x is None or y is None or y == 0 else format(x / y, form) + "x"
    print(f"\nratios (trimswitch af_xdp in this build: {xdp_switch})")
    print(f"64 B forwarded at max load: af_xdp / C AF_XDP {ratio('trimswitch-xdp', 'afxdp', 'max', kpps(FORWARDED))}"
          f" (goal >= 0.8), af_xdp / af_packet {ratio('trimswitch-xdp', 'trimswitch', 'max', kpps(FORWARDED))} (goal >= 2);"
          f" af_packet / C AF_PACKET {ratio('trimswitch', 'afpacket', 'max', kpps(FORWARDED))}")
    for rate in ["max"] + rates.split():
        print(f"CPU per frame at {rate}: af_packet / C AF_PACKET {ratio('trimswitch', 'afpacket', rate, cpu)} (goal <= 1.3),"
              f" af_xdp / af_packet {ratio('trimswitch-xdp', 'trimswitch', rate, cpu)} (goal <= 0.7),"
              f" C AF_XDP / C AF_PACKET {ratio('afxdp', 'afpacket', rate, cpu)}")
    print(f"TCP (no offload) af_xdp / af_packet {ratio('trimswitch-xdp', 'trimswitch', 'tcpoff', lambda row: float(row[0]))},"
          f" ping p50 af_packet / af_xdp {ratio('trimswitch', 'trimswitch-xdp', 'tcpoff', lambda row: float(row[2]))}"
          " (goal: both >= 1)")
    if "baseline" in modes or "baseline-xdp" in modes:
        for rate in ["max"] + rates.split():
            print(f"this build / baseline at {rate}: CPU per frame af_packet {ratio('trimswitch', 'baseline', rate, cpu)},"
                  f" af_xdp {ratio('trimswitch-xdp', 'baseline-xdp', rate, cpu)}; forwarded af_packet"
                  f" {ratio('trimswitch', 'baseline', rate, kpps(FORWARDED))}, af_xdp {ratio('trimswitch-xdp', 'baseline-xdp', rate, kpps(FORWARDED))}")


if __name__ == "__main__":
    main(*sys.argv[1:5])
