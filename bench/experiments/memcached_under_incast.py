#!/usr/bin/python3
"""The seed's third experiment: a memcached benchmark's time, idle and while several hosts send a long-lived incast to
memcached's host, through a tail-drop switch with kernel TCP senders and through a trimming switch with NDP senders.

Mininet hosts, each on a link to a port of one trimswitch (interface ports, AF_PACKET, `idle: poll`): host m (port 0)
runs memcached, hosts s1..sN (ports 1..N, N = SENDERS, 8) send to m, host c (port N+1) runs memslap (Debian's
`memcslap`) against m. m's port runs at RATE Gb/s (0.1), the senders' at SENDER_RATE (1); offloads are off, so that
every queued packet is one MTU frame. memcached's traffic is kernel TCP in both setups (DSCP 0: never trimmed, dropped
when the data queue is full), in the same data queue as the incast.

1. baseline: one data queue of BIG (200) packets that drops; N iperf3 TCP flows into m.
2. trimming: one data queue of SMALL (12) packets that trims DSCP 10; N `trimswitch host` NDP senders (long-lived
   flows of up to LOAD_S seconds, 1450-byte payloads: 1514-byte frames, as TCP's) into a `trimswitch host` receiver on m
   that pulls at RATE.
For each: memcslap (CONCURRENCY threads, EXECUTE requests each, get test: it first sets EXECUTE keys) idle, then once
the incast has moved LOAD_WARMUP packets through m's port; then SIGTERM ends the load (each NDP sender still reports
what it delivered). Prints the benchmark's time idle and loaded and the slowdown, and baseline / trimming; writes
OUT_DIR/memcached_under_incast.png and OUT_DIR/summary.json.

Usage: sudo bench/experiments/memcached_under_incast.py [OUT_DIR] (Debian's /usr/bin/python3 with Mininet; needs
ethtool, iperf3, memcached, libmemcached-tools and python3-matplotlib; a built cli/target/trimswitch.jar, or TRIMSWITCH
set to the command that runs the tool). Environment: RATE, SENDER_RATE, SENDERS, BIG, SMALL, CONCURRENCY (4), EXECUTE
(250), LOAD_WARMUP (1000), LOAD_S (60: longer than the warm-up and the benchmark), PREFIX (the Mininet nodes' names
begin with it; mc and the process id's last three digits by default). Everything it creates is removed on exit, whatever
happens.
"""

import os
import re
import time

import experiment
import lab


def settings():
    s = experiment.incast_settings(experiment.whole('SENDERS', 8, 60))
    s.update({'CONCURRENCY': experiment.whole('CONCURRENCY', 4), 'EXECUTE': experiment.whole('EXECUTE', 250),
              'LOAD_S': experiment.number('LOAD_S', '60')})
    return s


def tcp_counters(hosts, path):
    """memcached's and memslap's TCP counters: their namespaces' /proc/net/snmp and netstat, one after the other."""
    experiment.write_text(path, ''.join(host.cmd('cat /proc/net/snmp /proc/net/netstat') for host in hosts))


def measure(out, folder, s):
    """Both setups on one star, memcached on m throughout; returns the load over each setup's loaded benchmark."""
    senders = s['SENDERS']
    names = ['m'] + ['s%d' % i for i in range(1, senders + 1)] + ['c']
    addresses = ['10.9.0.1'] + ['10.9.0.%d' % (i + 1) for i in range(1, senders + 1)] + ['10.9.0.100']
    with lab.Lab(experiment.prefix('mc')) as net:
        star = experiment.Star(net, names, addresses)
        memcached = []

        def bench(name, phase):
            """The benchmark: its own report of its time, and the wall time around it."""
            if not memcached:
                memcached.append(net.popen(star['m'], ['memcached', '-u', 'nobody', '-l', '10.9.0.1', '-p', 11211,
                                                       '-t', 1, '-m', 64], log=os.path.join(folder, 'memcached.log')))
                lab.poll(10, 'memcached to listen', lambda: lab.still_running(memcached[0], 'memcached')
                         and lab.tcp_listening(star['m'], 11211))
            path = os.path.join(folder, '%s-%s.memcslap' % (name, phase))
            hosts = (star['m'], star['c'])
            tcp_counters(hosts, path + '.tcp-before')
            start = time.time()
            result = net.run(star['c'], ['memcslap', '--servers=10.9.0.1:11211', '--concurrency=%d' % s['CONCURRENCY'],
                                         '--execute-number=%d' % s['EXECUTE'], '--test=get', '--tcp-nodelay'],
                             timeout=600)
            wall = 'wall %.6f %.6f\n' % (start, time.time())
            tcp_counters(hosts, path + '.tcp-after')
            experiment.write_text(path, result.text + wall)
            if result.code != 0:
                raise lab.Failed('memcslap failed:\n%s' % result.text)

        return experiment.both_setups(out, folder, s, star, 'c, the memcslap client', bench, 200, 'memcslap')


def bench_times(path):
    text = lab.read_text(path)
    total = float(re.search(r'Time total:\s+([0-9.]+) seconds', text).group(1))
    get = re.search(r'Time to get\s+(\d+) keys by\s+(\d+) threads:\s+([0-9.]+) seconds', text)
    return {'totalS': total, 'getS': float(get.group(3)), 'gets': int(get.group(1))}


def tcp(path):
    """RetransSegs and TCPTimeouts, summed over the file's namespaces (memcached's host, then memslap's)."""
    lines, total = lab.read_text(path).splitlines(), {'RetransSegs': 0, 'TCPTimeouts': 0}
    for names, values in zip(lines, lines[1:]):
        n, v = names.split(), values.split()
        if n[0] == v[0] and n[0] in ('Tcp:', 'TcpExt:') and not n[1].lstrip('-').isdigit() and v[1].lstrip('-').isdigit():
            for key, value in zip(n[1:], v[1:]):
                if key in total:
                    total[key] += int(value)
    return total


def tcp_delta(prefix):
    before, after = tcp(prefix + '.tcp-before'), tcp(prefix + '.tcp-after')
    return {k: after[k] - before[k] for k in before}


def report(folder, s, load):
    """Prints the table and the ratio, writes summary.json and draws the plot."""
    summary, labels = {}, experiment.labels(s, ('TCP incast', 'NDP incast'))
    for name in labels:
        idle, loaded = (bench_times('%s/%s-%s.memcslap' % (folder, name, phase)) for phase in ('idle', 'loaded'))
        idle['tcp'] = tcp_delta('%s/%s-idle.memcslap' % (folder, name))
        loaded['tcp'] = tcp_delta('%s/%s-loaded.memcslap' % (folder, name))
        summary[name] = {'idle': idle, 'loaded': loaded, 'slowdown': loaded['totalS'] / idle['totalS']}
        summary[name].update(load[name])
    summary['ratio'] = summary['baseline']['slowdown'] / summary['trimming']['slowdown']
    experiment.write_json(os.path.join(folder, 'summary.json'), summary)

    rate, senders = s['RATE'], s['SENDERS']
    print('memcslap against memcached on the receiver of a %d:1 incast through its %g Gb/s port (%d gets after as many '
          'sets)' % (senders, rate, summary['baseline']['idle']['gets']))
    print(f"{'setup':<36} {'idle s':>7} {'loaded s':>9} {'slowdown':>9} {'load Gb/s':>9} {'trims':>7} {'drops':>7} "
          f"{'memcached retx/RTOs':>20}")
    for name, label in labels.items():
        f = summary[name]
        print(f"{label:<36} {f['idle']['totalS']:>7.3f} {f['loaded']['totalS']:>9.3f} {f['slowdown']:>8.1f}x "
              f"{f['loadGbps']:>9.3f} {f['trims']:>7} {f['drops']:>7} {f['loaded']['tcp']['RetransSegs']:>13}/"
              f"{f['loaded']['tcp']['TCPTimeouts']:<6}")
    print('slowdown, baseline / trimming: %.1fx' % summary['ratio'])

    plt = experiment.pyplot()
    fig, ax = plt.subplots(figsize=(8.5, 4.5))
    names = list(labels)
    width = 0.38
    for k, (phase, color) in enumerate((('idle', 'tab:gray'), ('loaded', 'tab:orange'))):
        xs = [i + (k - 0.5) * width for i in range(len(names))]
        bars = ax.bar(xs, [summary[n][phase]['totalS'] for n in names], width, color=color,
                      label='idle' if phase == 'idle' else "under a %d:1 incast to memcached's host" % senders)
        ax.bar_label(bars, fmt='%.2f s', fontsize=8)
    ax.set_xticks(range(len(names)), [labels[n] + '\n(slowdown %.1fx)' % summary[n]['slowdown'] for n in names],
                  fontsize=8)
    ax.set_yscale('log')
    ax.set_ylabel('memcslap benchmark time (s, log scale)')
    ax.set_title("memcslap time, idle and under an incast into memcached's %g Gb/s port:\ntail drop + TCP incast vs "
                 'trimming + NDP incast' % rate)
    ax.legend(fontsize=8, loc='upper right')
    experiment.save_plot(fig, folder, 'memcached_under_incast')


def run(out, folder, s):
    """The whole experiment into FOLDER."""
    report(folder, s, measure(out, folder, s))


if __name__ == '__main__':
    experiment.run('memcached-under-incast', ['ethtool', 'iperf3', 'memcached', 'memcslap'], settings, run)
