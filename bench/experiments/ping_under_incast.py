#!/usr/bin/python3
"""The seed's second experiment: a ping to a host, idle and then while nine other hosts send to it, through a tail-drop
switch with kernel TCP senders and through a trimming switch with NDP senders.

Eleven Mininet hosts, each on a link to a port of one trimswitch (interface ports, AF_PACKET, `idle: poll` so that the
switch leaves the cores to the hosts when it has nothing to do): host r (port 0) receives, hosts s1..s9 (ports 1..9)
send to it, host p (port 10) pings it. r's port runs at RATE Gb/s (0.1), the senders' at SENDER_RATE (1); the hosts'
offloads are off, so that every queued packet is one MTU frame.

1. baseline: one data queue of BIG (200) packets that drops what does not fit; nine iperf3 TCP flows into r.
2. trimming: one data queue of SMALL (12) packets that trims DSCP 10; nine `trimswitch host` NDP senders (long-lived
   flows of up to LOAD_S seconds, 1450-byte payloads: 1514-byte frames, as TCP's) into one `trimswitch host` receiver
   on r that pulls at RATE. The ping (DSCP 0) shares the data queue in both setups.
For each: PINGS pings every INTERVAL s idle, then the same once the load has moved LOAD_WARMUP packets through r's port;
then SIGTERM ends the load (each NDP sender still reports what it delivered). Prints idle and loaded RTT (avg, p50,
p99), the latency the load adds, and baseline / trimming; writes OUT_DIR/ping_under_incast.png (RTT distributions) and
OUT_DIR/summary.json.

Usage: sudo bench/experiments/ping_under_incast.py [OUT_DIR] (Debian's /usr/bin/python3 with Mininet; needs ethtool,
iputils-ping, iperf3 and python3-matplotlib; a built cli/target/trimswitch.jar, or TRIMSWITCH set to the command that
runs the tool). Environment: RATE, SENDER_RATE, BIG, SMALL, PINGS (200), INTERVAL (0.02), LOAD_WARMUP (1000), LOAD_S
(30: longer than the warm-up and the pings), PREFIX (the Mininet nodes' names begin with it; pi and the process id's
last three digits by default). Everything it creates is removed on exit, whatever happens.
"""

import os
import re
import statistics

import experiment
import lab

SENDERS = 9


def settings():
    s = experiment.incast_settings(SENDERS)
    s.update({'PINGS': experiment.whole('PINGS', 200), 'INTERVAL': experiment.number('INTERVAL', '0.02'),
              'LOAD_S': experiment.number('LOAD_S', '30')})
    return s


def measure(out, folder, s):
    """Both setups on one star; returns the load over each setup's loaded pings."""
    names = ['r'] + ['s%d' % i for i in range(1, SENDERS + 1)] + ['p']
    addresses = ['10.9.0.1'] + ['10.9.0.%d' % (i + 1) for i in range(1, SENDERS + 1)] + ['10.9.0.11']
    with lab.Lab(experiment.prefix('pi')) as net:
        star = experiment.Star(net, names, addresses)

        def pings(name, phase):
            result = net.run(star['p'], ['ping', '-n', '-c', s['PINGS'], '-i', '%g' % s['INTERVAL'], '-W', 1,
                                         '10.9.0.1'], timeout=s['PINGS'] * (s['INTERVAL'] + 1) + 30)
            experiment.write_text(os.path.join(folder, '%s-%s.ping' % (name, phase)), result.out)

        return experiment.both_setups(out, folder, s, star, 'p, the pinging host', pings, 120,
                                      '%d pings' % s['PINGS'])


def rtts(path):
    return sorted(float(m.group(1)) for m in re.finditer(r'time=([0-9.]+) ms', lab.read_text(path)))


def lost(path):
    m = re.search(r'(\d+) packets transmitted, (\d+) received', lab.read_text(path))
    return int(m.group(1)) - int(m.group(2)) if m else -1


def report(folder, s, load):
    """Prints the table and the ratio, writes summary.json and draws the plot."""
    pct = experiment.pct
    summary, series = {}, {}
    for name, label in experiment.labels(s, ('TCP', 'NDP')).items():
        idle, loaded = rtts('%s/%s-idle.ping' % (folder, name)), rtts('%s/%s-loaded.ping' % (folder, name))
        figures = {'idleMs': {'avg': statistics.mean(idle), 'p50': pct(idle, .5), 'p99': pct(idle, .99), 'n': len(idle)},
                   'loadedMs': {'avg': statistics.mean(loaded), 'p50': pct(loaded, .5), 'p99': pct(loaded, .99),
                                'n': len(loaded)},
                   'lost': lost('%s/%s-loaded.ping' % (folder, name))}
        figures.update(load[name])
        figures['addedMs'] = figures['loadedMs']['avg'] - figures['idleMs']['avg']
        figures['addedP50Ms'] = figures['loadedMs']['p50'] - figures['idleMs']['p50']
        summary[name] = figures
        series[name] = (label, idle, loaded)

    rate = s['RATE']
    print('ping RTT to the receiver of a 9:1 incast through its %g Gb/s port (ms)' % rate)
    print(f"{'setup':<32} {'idle avg/p50/p99':<22} {'loaded avg/p50/p99':<24} {'added avg/p50':>14} {'lost':>5} "
          f"{'load Gb/s':>9} {'trims':>6} {'drops':>6}")
    for name, (label, _, _) in series.items():
        f = summary[name]
        i, l = f['idleMs'], f['loadedMs']
        print(f"{label:<32} {i['avg']:.3f}/{i['p50']:.3f}/{i['p99']:.3f}{'':<4} {l['avg']:.3f}/{l['p50']:.3f}/"
              f"{l['p99']:.3f}{'':<4} {f['addedMs']:>7.3f}/{f['addedP50Ms']:.3f} {f['lost']:>5} {f['loadGbps']:>9.3f} "
              f"{f['trims']:>6} {f['drops']:>6}")

    def ratio(key):
        # None when the load added nothing measurable to the trimming setup (the idle phase was the noisier one).
        return summary['baseline'][key] / summary['trimming'][key] if summary['trimming'][key] > 0 else None

    def shown(r):
        return '%.1fx' % r if r is not None else '- (trimming added nothing measurable)'

    summary['ratio'] = {'avg': ratio('addedMs'), 'p50': ratio('addedP50Ms')}
    experiment.write_json(os.path.join(folder, 'summary.json'), summary)
    print('latency the load adds, baseline / trimming: %s on the average, %s on the median (the seed: 0.5 ms / 36 us = '
          '14x)' % (shown(ratio('addedMs')), shown(ratio('addedP50Ms'))))
    median = ratio('addedP50Ms')

    plt = experiment.pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for name, color in (('baseline', 'tab:red'), ('trimming', 'tab:blue')):
        label, idle, loaded = series[name]
        for xs, style, phase in ((idle, ':', 'idle'), (loaded, '-', 'under 9:1 incast')):
            ax.plot(xs, [(k + 1) / len(xs) for k in range(len(xs))], style, color=color, label='%s, %s' % (label, phase))
    ax.set_xscale('log')
    ax.set_xlabel('ping round-trip time (ms, log scale)')
    ax.set_ylabel('fraction of pings')
    ax.set_title('Ping to an incast receiver (%g Gb/s port): tail drop + TCP vs trimming + NDP\n'
                 'load adds %.2f ms vs %.2f ms to the median' % (rate, summary['baseline']['addedP50Ms'],
                                                                 summary['trimming']['addedP50Ms'])
                 + (' (%.0fx)' % median if median is not None else ''))
    ax.grid(True, which='both', alpha=.3)
    ax.legend(fontsize=8, loc='lower right')
    experiment.save_plot(fig, folder, 'ping_under_incast')


def run(out, folder, s):
    """The whole experiment into FOLDER."""
    report(folder, s, measure(out, folder, s))


if __name__ == '__main__':
    experiment.run('ping-under-incast', ['ethtool', 'ping', 'iperf3'], settings, run)
