#!/usr/bin/python3
"""Three parallel flows between two racks over three spines: ECMP with TCP against NDP spraying.

Six Mininet hosts, three per rack, each on a link to its leaf. The leaves are Linux routers (Mininet nodes with
ip_forward) that hash flows over three equal-cost routes, one per spine, on the 5-tuple (fib_multipath_hash_policy=1):
that is ECMP. The spines are trimswitches, each in its own namespace, whose two ports sit on links to the leaves
(interface ports, AF_PACKET; `idle: poll`, so that a spine with nothing to forward leaves the cores to the hosts). Every
spine's port down to rack B is limited to RATE Gb/s (0.1), so the fabric carries 3 x RATE from rack A to rack B; each
spine trims DSCP 10 in a 16-packet queue and drops anything else from a 64-packet one. The links' offloads are off, so
that every queued packet is one MTU frame. Every link has an MTU of MTU bytes (9000, jumbo frames): at 0.1 Gb/s a flow
of 1500-byte frames is 8300 packets a second, and six host JVMs and three switches on a small machine's cores then lose
NDP's pull clock; 9000-byte frames carry the same bytes in a sixth of the packets (docs/hosts.md).

1. TCP: iperf3 from host a_i to host b_i, three flows at once. ECMP puts each flow on one spine; when two hash onto
   the same spine they share its RATE while another spine idles.
2. NDP, sprayed: `trimswitch host` senders with --spray K (K source ports: the leaf's hash sends each elsewhere),
   receivers pulling at RATE each. Every flow uses every spine; with many ports, about as much of each as of the others.
3. NDP, not sprayed (--spray 1): one path per flow, as ECMP gives TCP.
For each, the flows' throughput (TCP) or goodput and FCT (NDP), each spine's packets towards rack B, and how busy the
machine's cores were meanwhile (from /proc/stat: near 100 %, the hosts waited for a core). Writes
OUT_DIR/ecmp_vs_spraying.png and OUT_DIR/summary.json.

Usage: sudo bench/experiments/ecmp_vs_spraying.py [OUT_DIR] (Debian's /usr/bin/python3 with Mininet; needs ethtool,
iputils-ping, iperf3 and python3-matplotlib; a built cli/target/trimswitch.jar or TRIMSWITCH set to the command that
runs the tool). Environment: RATE (0.1), SECONDS_TCP (8), PACKETS (1000, per NDP flow), SPRAY (64), WINDOW (30, the NDP
senders' initial window), MTU (9000; every link's, and the NDP packets fill it), PREFIX (the Mininet nodes' names begin
with it; es and the process id's last three digits by default). Everything it creates is removed on exit, whatever
happens.
"""

import os

import experiment
import lab
from trimswitch import LinuxRouter

SPINES = (1, 2, 3)
FLOWS = (1, 2, 3)
RUNS = (('ndp-sprayed', 'NDP, sprayed'), ('ndp-single', 'NDP, one path'))


def settings():
    s = {'RATE': experiment.number('RATE', '0.1'), 'SECONDS_TCP': experiment.whole('SECONDS_TCP', 8)}
    s.update(experiment.exp1_settings())
    # An NDP packet fills the MTU: the data behind IPv4, UDP and the hosts' 22-byte shim and tag.
    s['PAYLOAD'] = s['MTU'] - 50
    return s


def spine_yaml(rate, mtu):
    return '\n'.join(['mechanism: tofino', 'fabric:', '  pipelines: 1', '  portsPerPipeline: 2', 'qos:', '  queues:',
                      '    - {packets: 64, discard: drop}', '    - {packets: 16, discard: trim}', '  dscpToTc: {10: 1}',
                      'workload:',
                      '  packetBytes: %d   # the frames\' size: the ingress meters hold as many as the 16-packet queue'
                      % (mtu + 14), 'realtime:', '  idle: poll', 'forwarding:', '  mode: l2', 'ports:',
                      '  - {}                       # to leaf A', '  - {rateGbps: %s}        # down to leaf B'
                      % experiment.gbps(rate), ''])


class Fabric(object):
    """Two racks of three hosts behind Linux leaves, three trimswitch spines between them: host a_i is 10.1.i.2 behind
    leaf A (10.1.i.1), b_i is 10.2.i.2 behind leaf B; spine s links leaf A (10.100.s.1, its port 0) to leaf B
    (10.100.s.2, its port 1), and each leaf spreads the other rack's prefix over the spines by ECMP."""

    def __init__(self, net, folder, s):
        self.net = net
        leaves = {}
        for rack, number in (('A', 1), ('B', 2)):
            other = 3 - number
            hops = ' '.join('nexthop via 10.100.%d.%d' % (spine, other) for spine in SPINES)
            route = '10.%d.0.0/16 %s' % (other, hops)
            leaves[rack] = net.host('leaf' + rack, cls=LinuxRouter, routes=[route])
        self.hosts = {}
        for i in FLOWS:
            for rack, number in (('a', 1), ('b', 2)):
                host = net.host('%s%d' % (rack, i), ip='10.%d.%d.2/24' % (number, i),
                                defaultRoute='via 10.%d.%d.1' % (number, i))
                self.wire(host, leaves[rack.upper()], s['MTU'], ip2='10.%d.%d.1/24' % (number, i))
                self.hosts[host.name[-2:]] = host
        self.spines = []
        for spine in SPINES:
            config = os.path.join(folder, 'spine%d.yaml' % spine)
            experiment.write_text(config, spine_yaml(s['RATE'], s['MTU']))
            switch = net.switch('sp%d' % spine, config=config, javaOpts=experiment.SWITCH_JAVA_OPTS)
            for rack, number in (('A', 1), ('B', 2)):
                self.wire(leaves[rack], switch, s['MTU'], ip1='10.100.%d.%d/24' % (spine, number))
            self.spines.append(switch)

    def wire(self, a, b, mtu, ip1=None, ip2=None):
        link = self.net.link(a, b, ip1=ip1, ip2=ip2, mtu=mtu)
        experiment.offloads_off(link.intf1, link.intf2)

    def __getitem__(self, name):
        return self.hosts[name]

    def spine_stats(self, folder, name):
        """Each spine's counters, kept in FOLDER/NAME-spineS.json; returns each spine's port down to rack B."""
        down = []
        for number, spine in zip(SPINES, self.spines):
            ports = self.net.stats(spine)
            experiment.save_stats(os.path.join(folder, '%s-spine%d.json' % (name, number)), ports)
            down.append(ports[1])
        return down


def shares(before, after):
    """Each spine's packets down to rack B between two readings, and how many of them were trimmed."""
    return [(a['txPackets'] - b['txPackets'], a.get('txTrimPackets', 0) - b.get('txTrimPackets', 0))
            for b, a in zip(before, after)]


def tcp_run(out, folder, s, fabric):
    out.say('1. TCP, ECMP: three iperf3 flows for %d s' % s['SECONDS_TCP'])
    net = fabric.net
    before, cpu = fabric.spine_stats(folder, 'tcp-before'), experiment.cpu_jiffies()
    servers = [lab.iperf3_server(net, fabric['b%d' % i]) for i in FLOWS]
    clients = [net.popen(fabric['a%d' % i], ['iperf3', '-c', '10.2.%d.2' % i, '-p', 5201, '-t', s['SECONDS_TCP'], '-J'],
                         log=os.path.join(folder, 'tcp%d.json' % i)) for i in FLOWS]
    experiment.wait_all(clients, 'TCP')
    busy = experiment.busy_percent(cpu, experiment.cpu_jiffies())
    after = fabric.spine_stats(folder, 'tcp-after')
    experiment.end(servers)
    reports = [lab.read_json(os.path.join(folder, 'tcp%d.json' % i))['end'] for i in FLOWS]
    return {'rates': [r['sum_received']['bits_per_second'] / 1e9 for r in reports], 'fcts': None,
            'shares': shares(before, after), 'retx': sum(r['sum_sent'].get('retransmits', 0) for r in reports),
            'busy': busy}


def ndp_run(out, folder, s, fabric, name, spray):
    """Three NDP flows of PACKETS packets from a_i to b_i, sprayed over SPRAY source ports, starting together."""
    net, size = fabric.net, s['PACKETS'] * s['PAYLOAD']
    out.say('%s: three NDP flows of %d packets (%d bytes), --spray %d' % (name, s['PACKETS'], size, spray))
    before, cpu = fabric.spine_stats(folder, name + '-before'), experiment.cpu_jiffies()
    pids = [spine.pid_of_switch() for spine in fabric.spines]
    spines_cpu = experiment.process_cpu(pids)
    path = lambda role, i, ext: os.path.join(folder, '%s-%s%d.%s' % (name, role, i, ext))  # noqa: E731
    receivers = [lab.ndp_host(net, fabric['b%d' % i], [
        '--listen', '10.2.%d.2:%d' % (i, experiment.NDP_PORT), '--rate-gbps', experiment.gbps(s['RATE']),
        '--expect-flows', 1, '--timeout-s', 30, '--payload-bytes', s['PAYLOAD']],
        path('receiver', i, 'json'), log=path('receiver', i, 'log')) for i in FLOWS]
    for i, receiver in zip(FLOWS, receivers):
        lab.poll(20, 'receiver b%d to listen' % i, lambda: lab.still_running(receiver, 'receiver b%d' % i)
                 and 'receiving on' in lab.read_text(path('receiver', i, 'log')))
    hosts_cpu = experiment.children_cpu()
    start = experiment.start_in(2)
    senders = [lab.ndp_host(net, fabric['a%d' % i], [
        '--connect', '10.2.%d.2:%d' % (i, experiment.NDP_PORT), '--size', size, '--payload-bytes', s['PAYLOAD'],
        '--rate-gbps', 1, '--spray', spray, '--window', s['WINDOW'], '--rto-ms', 50, '--start-at', start,
        '--timeout-s', 30], path('sender', i, 'json'), log=path('sender', i, 'log')) for i in FLOWS]
    experiment.wait_all(senders + receivers, name)
    hosts_cpu = experiment.children_cpu() - hosts_cpu
    experiment.late_starters(out, [path('sender', i, 'log') for i in FLOWS])
    busy = experiment.busy_percent(cpu, experiment.cpu_jiffies())
    spines_cpu = experiment.process_cpu(pids) - spines_cpu
    after = fabric.spine_stats(folder, name + '-after')
    flows = [lab.read_json(path('sender', i, 'json'))['flows'][0] for i in FLOWS]
    return {'rates': [f['goodputGbps'] for f in flows], 'fcts': [f['fctUs'] / 1e3 for f in flows],
            'shares': shares(before, after), 'retx': sum(f['retransmissions'] for f in flows), 'busy': busy,
            'hostCpuS': hosts_cpu, 'spineCpuS': spines_cpu}


def measure(out, folder, s, tcp=True):
    """The fabric, the warm-up flow and the three runs (the NDP ones only without TCP); returns each run's figures, by
    label."""
    experiment.write_text(os.path.join(folder, 'settings.txt'), experiment.exp1_signature(s['RATE'], s) + '\n')
    with lab.Lab(experiment.prefix('es')) as net:
        fabric = Fabric(net, folder, s)
        net.start()
        experiment.reach(net, [(fabric['a%d' % i], '10.2.%d.2' % j) for i in FLOWS for j in FLOWS], 3)
        out.say('every host of rack A reaches every host of rack B over the spines')
        out.say('warm-up: an unmeasured NDP flow from a1 to b1 sprayed over all three spines for 2 s')
        experiment.warm_up(net, fabric['b1'], fabric['a1'], '10.2.1.2', 3 * s['RATE'], 8, s['PAYLOAD'])
        runs = {'TCP, ECMP': tcp_run(out, folder, s, fabric)} if tcp else {}
        for (name, label), spray in zip(RUNS, (s['SPRAY'], 1)):
            runs[label] = ndp_run(out, folder, s, fabric, name, spray)
        experiment.stop_switches(net, [(spine, os.path.join(folder, 'spine%d.log' % number))
                                       for number, spine in zip(SPINES, fabric.spines)])
    return runs


def report(folder, s, runs):
    """Prints the table and the ratios, writes summary.json and draws the plot."""
    rate, mtu = s['RATE'], s['MTU']
    summary = []
    print('three flows from rack A to rack B over three spines of %g Gb/s each (%.1f Gb/s in all), MTU %d'
          % (rate, 3 * rate, mtu))
    print(f"{'run':<14} {'per flow Gb/s':<19} {'sum Gb/s':>8} {'FCT ms':<15} {'retx':>5} {'CPU busy':>8}  "
          f"{'spine packets down (trimmed)'}")
    for label, run in runs.items():
        fct = ' '.join('%.0f' % f for f in run['fcts']) if run['fcts'] else '-'
        spines = ' '.join('%d (%d)' % share for share in run['shares'])
        per_flow = ' '.join('%.3f' % r for r in run['rates'])
        print(f"{label:<14} {per_flow:<19} {sum(run['rates']):>8.3f} {fct:<15} {run['retx']:>5} {run['busy']:>7.0f}%  "
              f"{spines}")
        summary.append({'run': label, 'gbpsPerFlow': run['rates'], 'fctMs': run['fcts'],
                        'spinePacketsDown': [tx for tx, _ in run['shares']],
                        'spineTrims': [trim for _, trim in run['shares']], 'retransmissions': run['retx'],
                        'cpuBusyPercent': run['busy']})
    by_run = {row['run']: row for row in summary}
    for _, label in RUNS:
        row = by_run[label]
        hosts, spines = runs[label]['hostCpuS'], runs[label]['spineCpuS']
        print('%s: the six NDP host processes used %.1f CPU s (JVM start and JIT included), the three spines %.1f CPU s'
              % (label, hosts, spines))
        row.update({'hostCpuS': hosts, 'spineCpuS': spines})
    # The seed's effect as a ratio within this run: the slowest flow sprayed against the slowest on one path each.
    slowest = {label: min(run['rates']) for label, run in runs.items()}
    sprayed = by_run['NDP, sprayed']
    for baseline, key in (('TCP, ECMP', 'slowestFlowAgainstTcpEcmp'), ('NDP, one path', 'slowestFlowAgainstNdpOnePath')):
        if baseline not in slowest:
            continue
        ratio = slowest['NDP, sprayed'] / slowest[baseline] if slowest[baseline] > 0 else float('inf')
        print('slowest flow, NDP sprayed against %s: %.3f / %.3f Gb/s = %.2fx'
              % (baseline, slowest['NDP, sprayed'], slowest[baseline], ratio))
        sprayed[key] = ratio if ratio != float('inf') else None
    experiment.write_json(os.path.join(folder, 'summary.json'), summary)

    plt = experiment.pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    width = 0.27
    rows = list(runs.values())
    for k in range(3):
        xs = [r + (k - 1) * width for r in range(len(rows))]
        left.bar(xs, [run['rates'][k] for run in rows], width, label='flow %d (a%d to b%d)' % (k + 1, k + 1, k + 1))
        right.bar(xs, [100 * run['shares'][k][0] / max(1, sum(tx for tx, _ in run['shares'])) for run in rows], width,
                  label='spine %d' % (k + 1))
    left.axhline(rate, color='black', linestyle='--', linewidth=1, label="one spine's rate (%g Gb/s)" % rate)
    left.set_ylabel('throughput (TCP) or goodput (NDP) per flow (Gb/s)')
    right.set_ylabel('share of the packets down to rack B (%)')
    for ax in (left, right):
        ax.set_xticks(range(len(rows)), ['%s\n(CPU %.0f%% busy)' % (label, run['busy']) for label, run in runs.items()],
                      fontsize=8)
        ax.legend(fontsize=8)
    left.set_title('per-flow rate')
    right.set_title("each spine's share (ECMP can leave a spine idle)")
    fig.suptitle('Three flows between two racks over three %g Gb/s spines (%d-byte MTU): TCP with ECMP vs NDP sprayed '
                 'vs NDP on one path' % (rate, mtu))
    experiment.save_plot(fig, folder, 'ecmp_vs_spraying')


def run(out, folder, s, tcp=True):
    """The whole experiment into FOLDER; live_vs_virtual.py runs it without TCP as its experiment 1."""
    report(folder, s, measure(out, folder, s, tcp))


if __name__ == '__main__':
    experiment.run('ecmp-vs-spraying', ['ethtool', 'ping', 'iperf3'], settings, run)
