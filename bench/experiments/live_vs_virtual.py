#!/usr/bin/python3
"""The live experiments next to their virtual-time counterparts, with the same parameters where the simulator can
express them: FCT p50 and p99, trims and retransmissions of the NDP flows.

1. Experiment 1 (three flows between two racks over three RATE Gb/s spines, 16-packet trimming queues): live, as
   ecmp_vs_spraying.py runs it (NDP sprayed over SPRAY source ports, and on one path); virtual, `trimswitch fabric` with
   2 leaves x 3 hosts, 3 spines, host and uplink links at RATE, `--routing spray` and `--routing ecmp`, a permutation
   of PACKETS-packet flows (its flows from rack 0 to rack 1 are counted, as the live ones). Both in frames of MTU + 14
   bytes (jumbo frames by default, as ecmp_vs_spraying.py explains).
2. Experiment 2's incast, finite: nine NDP senders of PACKETS packets each into one receiver whose switch port runs at
   RATE with a 12-packet trimming data queue. Live: ten Mininet hosts on the interface ports of one trimswitch (as
   ping_under_incast.py builds them, senders' ports at SENDER_RATE, 1450-byte payloads: 1514-byte frames); virtual:
   `trimswitch scenario --pattern incast:9->1` with the same ports: the receiver's at RATE, the senders' at SENDER_RATE
   (each host pulls and paces at its own port's rate).
Both use a 30-packet initial window and a 50 ms retransmission timeout. Prints the table and writes
OUT_DIR/live_vs_virtual.png and OUT_DIR/live_vs_virtual.json.

Usage: sudo bench/experiments/live_vs_virtual.py [OUT_DIR] (needs what ecmp_vs_spraying.py needs; a built
cli/target/trimswitch.jar, or TRIMSWITCH set to the command that runs the tool). Environment: RATE (0.1), SENDER_RATE
(1), PACKETS (1000), SPRAY (64), WINDOW (30), MTU (9000, experiment 1's), EXP1_DIR (the OUT_DIR of an earlier
ecmp_vs_spraying.py run with the same RATE, PACKETS, MTU, SPRAY and WINDOW, instead of running it again), PREFIX (the
Mininet nodes' names begin with it; lv and the process id's last three digits by default). Everything it creates is
removed on exit, whatever happens.
"""

import contextlib
import glob
import os
import shutil
import subprocess
import sys

import ecmp_vs_spraying
import experiment
import lab
import trimswitch

SENDERS = 9
# Experiment 1's packets fill its MTU (ecmp_vs_spraying.py); the incast's interface ports take 1500-byte IP packets:
# 1450 bytes of data in each (1514 bytes on the wire).
INCAST_PAYLOAD = 1450


def settings():
    s = {'RATE': experiment.number('RATE', '0.1'), 'SENDER_RATE': experiment.number('SENDER_RATE', '1')}
    s.update(experiment.exp1_settings())
    s['PAYLOAD'] = s['MTU'] - 50
    return s


def experiment_1(out, folder, s):
    """Experiment 1 live into FOLDER/exp1: from EXP1_DIR when given (and run with the same settings), else run now
    without its TCP run, which nothing here compares, its lines in FOLDER/exp1.log."""
    target = os.path.join(folder, 'exp1')
    earlier = os.environ.get('EXP1_DIR')
    if earlier:
        if not os.path.isfile(os.path.join(earlier, 'summary.json')):
            raise lab.BadInput('%s: EXP1_DIR %s has no summary.json' % (experiment.script(), earlier))
        expected = experiment.exp1_signature(s['RATE'], s)
        found = lab.read_text(os.path.join(earlier, 'settings.txt')).strip()
        if found != expected:
            raise lab.BadInput("%s: EXP1_DIR %s ran with '%s', not '%s'"
                               % (experiment.script(), earlier, found, expected))
        out.say('experiment 1, live: from %s' % earlier)
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(earlier, target)
        return
    out.say('experiment 1, live: ecmp_vs_spraying.py')
    os.makedirs(target, exist_ok=True)
    log = os.path.join(folder, 'exp1.log')
    try:
        with open(log, 'w') as lines, contextlib.redirect_stdout(lines):
            ecmp_vs_spraying.run(lab.Output('ecmp-vs-spraying'), target, s, tcp=False)
    except BaseException:
        sys.stdout.write(lab.read_text(log))
        raise


def incast_live(out, folder, s):
    """Experiment 2's finite incast on a star of ten hosts; the switch's counters at the end in incast-stats.json."""
    size = s['PACKETS'] * INCAST_PAYLOAD
    names = ['r'] + ['s%d' % i for i in range(1, SENDERS + 1)]
    addresses = ['10.9.0.%d' % (i + 1) for i in range(SENDERS + 1)]
    config = os.path.join(folder, 'incast-switch.yaml')
    experiment.write_text(config, experiment.star_yaml(12, [(s['RATE'], None)] + [(s['SENDER_RATE'], None)] * SENDERS))
    out.say("experiment 2's incast, live: 9 x %d bytes into a %g Gb/s port with a 12-packet trimming queue"
            % (size, s['RATE']))
    with lab.Lab(experiment.prefix('lv')) as net:
        star = experiment.Star(net, names, addresses, config)
        star.start()
        out.say('warm-up: an unmeasured NDP flow from s1 to r for 2 s')
        experiment.warm_up(net, star['r'], star['s1'], '10.9.0.1', s['RATE'], 1, INCAST_PAYLOAD)
        path = lambda role, ext: os.path.join(folder, 'incast-%s.%s' % (role, ext))  # noqa: E731
        receiver = lab.ndp_host(net, star['r'], [
            '--listen', '10.9.0.1:%d' % experiment.NDP_PORT, '--rate-gbps', experiment.gbps(s['RATE']),
            '--payload-bytes', INCAST_PAYLOAD, '--expect-flows', SENDERS, '--timeout-s', 60],
            path('receiver', 'json'), log=path('receiver', 'log'))
        lab.poll(60, 'the NDP receiver to bind', lambda: lab.still_running(receiver, 'the NDP receiver')
                 and lab.udp_bound(star['r'], experiment.NDP_PORT))
        # The nine senders begin together, as in virtual time, once their JVMs have started (about 0.4 s of CPU each).
        start = experiment.start_in(4)
        senders = [lab.ndp_host(net, star['s%d' % i], [
            '--connect', '10.9.0.1:%d' % experiment.NDP_PORT, '--size', size, '--payload-bytes', INCAST_PAYLOAD,
            '--rate-gbps', experiment.gbps(s['SENDER_RATE']), '--window', s['WINDOW'], '--rto-ms', 50,
            '--start-at', start, '--timeout-s', 60], path('sender%d' % i, 'json'), log=path('sender%d' % i, 'log'))
            for i in range(1, SENDERS + 1)]
        experiment.wait_all(senders + [receiver], 'the incast')
        experiment.late_starters(out, [path('sender%d' % i, 'log') for i in range(1, SENDERS + 1)])
        experiment.save_stats(path('stats', 'json'), star.stats())
        experiment.stop_cleanly(net, star.switch, path('switch', 'log'))


def virtual(out, folder, s):
    """The same two experiments in virtual time: fabric-spray.json, fabric-ecmp.json and scenario.json."""
    rate = experiment.gbps(s['RATE'])
    experiment.write_text(os.path.join(folder, 'fabric.yaml'), '\n'.join([
        'topology:', '  leaves: 2', '  spines: 3', '  hostsPerLeaf: 3', '  hostRateGbps: %s' % rate,
        '  uplinkRateGbps: %s' % rate, '  linkLatencyNs: 20000',
        "# fabric's links run at one rate both ways: the bottleneck of a flow pair on one spine is leaf 0's uplink,",
        "# not the spine's port down (live, the leaves' uplinks are unlimited); that uplink trims as the live spine's",
        "# port does.",
        'leaf:', '  mechanism: tofino', '  fabric: {dataQueuePackets: 16}',
        "spine:                        # as the live spines: DSCP 10 in a 16-packet queue that trims",
        '  mechanism: tofino', '  fabric: {dataQueuePackets: 16}', 'workload:', '  kind: permutation',
        '  packets: %d' % s['PACKETS'], '  packetBytes: %d' % (s['MTU'] + 14), '  seed: 1', 'transport:',
        '  rtoUs: 50000', '  initialWindowPackets: %d' % s['WINDOW'], '  maxDurationUs: 4000000', '']))
    for routing in ('spray', 'ecmp'):
        out.say('experiment 1, virtual: trimswitch fabric --routing %s' % routing)
        tool(folder, 'fabric-%s.txt' % routing, 'fabric', '--config', os.path.join(folder, 'fabric.yaml'),
             '--routing', routing, '--json', os.path.join(folder, 'fabric-%s.json' % routing))
    # The live incast's ports: the receiver's (port 0) at RATE, the senders' at SENDER_RATE.
    experiment.write_text(os.path.join(folder, 'scenario.yaml'), '\n'.join([
        'mechanism: tofino', 'fabric:', '  portRateGbps: %s' % experiment.gbps(s['SENDER_RATE']),
        '  dataQueuePackets: 12', 'ports:', '  - {rateGbps: %s}' % rate, 'transport:',
        '  initialWindowPackets: %d' % s['WINDOW'], '  rtoUs: 50000', '  propagationNs: 20000',
        '  maxDurationUs: 4000000', '']))
    out.say("experiment 2's incast, virtual: trimswitch scenario --pattern incast:9->1")
    tool(folder, 'scenario.txt', 'scenario', '--config', os.path.join(folder, 'scenario.yaml'), '--pattern',
         'incast:9->1', '--packets', s['PACKETS'], '--packet-bytes', 1514, '--no-ideal', '--json',
         os.path.join(folder, 'scenario.json'))


def tool(folder, output, *args):
    """`trimswitch ARGS`, what it prints in FOLDER/OUTPUT; Failed when it exits non-zero."""
    with open(os.path.join(folder, output), 'w') as printed:
        result = subprocess.run(trimswitch.tool_command() + [str(arg) for arg in args], stdout=printed,
                                stderr=subprocess.PIPE, universal_newlines=True)
    if result.returncode != 0:
        raise lab.Failed('trimswitch %s exited %d: %s' % (args[0], result.returncode, result.stderr))


def clocks(live, virtual_flows):
    """A row's live and virtual figures: LIVE's (p50, p99, trims, retransmissions) beside virtual time's flows'."""
    pct = experiment.pct
    completions = [f['completionNs'] / 1e6 for f in virtual_flows]
    return {'live': live, 'virtual': {'p50Ms': pct(completions, .5), 'p99Ms': pct(completions, .99),
                                      'retransmissions': sum(f['retransmissions'] for f in virtual_flows)}}


def live_figures(fcts, trims, flows):
    return {'p50Ms': experiment.pct(fcts, .5), 'p99Ms': experiment.pct(fcts, .99), 'trims': trims,
            'retransmissions': sum(f['retransmissions'] for f in flows)}


def report(folder, s):
    """Prints the table, writes live_vs_virtual.json and draws the plot."""
    rows = []
    exp1 = {row['run']: row for row in lab.read_json(os.path.join(folder, 'exp1', 'summary.json'))}
    for run, routing, name in (('NDP, sprayed', 'spray', 'ndp-sprayed'), ('NDP, one path', 'ecmp', 'ndp-single')):
        live = exp1[run]
        senders = [lab.read_json(os.path.join(folder, 'exp1', '%s-sender%d.json' % (name, i)))['flows'][0]
                   for i in (1, 2, 3)]
        fabric = lab.read_json(os.path.join(folder, 'fabric-%s.json' % routing))
        # Trims towards rack 1: on the spines' ports down to leaf 1, and on leaf 0's uplinks (its ports after its hosts).
        spine_trims = sum(p['trimPackets'] for switch in fabric['switches'] for p in switch['ports']
                          if (switch['tier'] == 'spine' and p['id'] == 1) or (switch['name'] == 'leaf0' and p['id'] >= 3))
        row = {'experiment': '1: 3 flows, 2 racks, 3 spines', 'run': '%s (%s)' % (run, routing)}
        row.update(clocks(live_figures(live['fctMs'], sum(live['spineTrims']), senders),
                          [f for f in fabric['flows'] if f['src'] < 3]))
        row['virtual']['trims'] = spine_trims
        rows.append(row)
    senders = [lab.read_json(path)['flows'][0] for path in sorted(glob.glob(os.path.join(folder, 'incast-sender*.json')))]
    stats = {p['port']: p for p in lab.read_json(os.path.join(folder, 'incast-stats.json'))}[0]
    scenario = lab.read_json(os.path.join(folder, 'scenario.json'))
    row = {'experiment': '2: 9:1 incast, 12-packet queue', 'run': '9 NDP senders, 1 receiver'}
    row.update(clocks(live_figures([f['fctUs'] / 1e3 for f in senders], stats['txTrimPackets'], senders),
                      scenario['flows']))
    row['virtual']['trims'] = scenario['trims']['total']
    rows.append(row)
    experiment.write_json(os.path.join(folder, 'live_vs_virtual.json'), rows)

    rate, packets, mtu = s['RATE'], s['PACKETS'], s['MTU']
    print('NDP flows of %d packets, links at %g Gb/s (experiment 1: %d-byte frames; 2: 1514-byte ones): live (Mininet '
          'hosts, trimswitch) vs virtual time' % (packets, rate, mtu + 14))
    print(f"{'experiment':<32} {'run':<24} {'FCT p50 ms live/virt':>21} {'FCT p99 ms live/virt':>21} "
          f"{'trims live/virt':>16} {'retx live/virt':>15}")
    for r in rows:
        l, v = r['live'], r['virtual']
        print(f"{r['experiment']:<32} {r['run']:<24} {l['p50Ms']:>10.0f}/{v['p50Ms']:<10.0f} {l['p99Ms']:>10.0f}/"
              f"{v['p99Ms']:<10.0f} {l['trims']:>7}/{v['trims']:<8} {l['retransmissions']:>7}/{v['retransmissions']:<7}")

    plt = experiment.pyplot()
    fig, ax = plt.subplots(figsize=(9, 4.5))
    width = 0.2
    for k, (clock, q, color, hatch) in enumerate((('live', 'p50Ms', 'tab:orange', ''),
                                                  ('live', 'p99Ms', 'tab:orange', '//'),
                                                  ('virtual', 'p50Ms', 'tab:blue', ''),
                                                  ('virtual', 'p99Ms', 'tab:blue', '//'))):
        xs = [i + (k - 1.5) * width for i in range(len(rows))]
        ax.bar(xs, [r[clock][q] for r in rows], width, color=color, hatch=hatch, edgecolor='black',
               label='%s, FCT %s' % (clock, 'median' if q == 'p50Ms' else 'p99'))
        if clock == 'live':
            for x, r in zip(xs, rows):
                ax.annotate('%.2fx' % (r['live'][q] / r['virtual'][q]), (x, r['live'][q]), ha='center', va='bottom',
                            fontsize=8)
    ax.set_xticks(range(len(rows)), ['exp %s: %s' % (r['experiment'][0], r['run']) for r in rows], fontsize=8)
    ax.set_ylabel('flow completion time (ms); above live bars: live / virtual')
    ax.set_title('NDP flows of %d packets at %g Gb/s (exp 1: %d-byte frames, exp 2: 1514): live vs virtual time'
                 % (packets, rate, mtu + 14), fontsize=10)
    ax.legend(fontsize=8, loc='upper left')
    experiment.save_plot(fig, folder, 'live_vs_virtual')


def run(out, folder, s):
    """The whole experiment into FOLDER."""
    experiment_1(out, folder, s)
    incast_live(out, folder, s)
    virtual(out, folder, s)
    report(folder, s)


if __name__ == '__main__':
    experiment.run('live-vs-virtual', ['ethtool', 'ping', 'iperf3'], settings, run)
