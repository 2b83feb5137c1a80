"""Resident memory of trimswitch switches in Mininet, after a ping between every pair and two iperf3 TCP bursts.

    sudo /usr/bin/python3 mininet/memory.py single 8        # one switch with 8 hosts: an 8-port switch
    sudo /usr/bin/python3 mininet/memory.py leafspine       # the seed's leaf-spine (three 2-port spines)

TRIMSWITCH_JAVA_OPTS, when set, replaces the switches' JVM options (an empty value: the launcher's own). Prints each
switch's RSS (ps -o rss), the second TCP burst's rate (the first warms the switches up) and the datagrams a burst of
64-byte UDP datagrams got through, which show whether the switches still keep up. Every node's name begins with 'mm',
or with MEMORY_PREFIX (one that no other lab on the machine uses); TRIMSWITCH, when set, is the command that runs the
switches (a build of another checkout, to compare); MEMORY_SWITCH_ARGS, more options of every switch's `trimswitch run`
(e.g. `--config fabric.yaml`).
"""

import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mininet.log import setLogLevel  # noqa: E402
from mininet.net import Mininet  # noqa: E402
from mininet.topo import Topo  # noqa: E402

import trimswitch  # noqa: E402


class Single(Topo):
    """One switch, n hosts: an n-port switch."""

    def build(self, n=8, prefix='mm'):
        switch = self.addSwitch('%ss1' % prefix, dpid='1')
        for i in range(1, n + 1):
            self.addLink(self.addHost('%sh%d' % (prefix, i), ip='10.77.0.%d/24' % i), switch)


def rss_kib(pid):
    return int(subprocess.check_output(['ps', '-o', 'rss=', '-p', str(pid)]).decode().strip() or 0)


def pss_kib(pid):
    """The proportional share: pages mapped by several switches (the JVM, the class archive) counted once in all."""
    with open('/proc/%d/smaps_rollup' % pid) as rollup:
        return next(int(line.split()[1]) for line in rollup if line.startswith('Pss:'))


def print_maps(pid):
    """The largest resident mappings of a process, from /proc/PID/smaps (MEMORY_MAPS=1)."""
    maps, current = [], None
    with open('/proc/%d/smaps' % pid) as smaps:
        for line in smaps:
            fields = line.split()
            if '-' in fields[0] and not fields[0].endswith(':'):
                current = [fields[0], ' '.join(fields[5:]) or '[anon]', 0]
                maps.append(current)
            elif fields[0] == 'Rss:':
                current[2] = int(fields[1])
    # The ports' receive rings (socket:[...] mappings) as one line: they are many, of one size each.
    rings = [m for m in maps if m[1].startswith('socket:')]
    if rings:
        maps = [m for m in maps if not m[1].startswith('socket:')]
        maps.append(['', '%d receive rings' % len(rings), sum(m[2] for m in rings)])
    for start, name, rss in sorted(maps, key=lambda m: -m[2])[:16]:
        print('  %8.1f MiB %s %s' % (rss / 1024.0, start, name))
    print('  %8.1f MiB in all' % (sum(m[2] for m in maps) / 1024.0))


def iperf(client, server, seconds, port, udp=False):
    """An iperf3 burst: TCP (Gb/s received), or UDP 64-byte datagrams as fast as the client sends them (thousands of
    datagrams a second received, and the share lost), which costs the switch per packet rather than per byte."""
    server.cmd('iperf3 -s -1 -D -p %d' % port)
    time.sleep(0.5)
    options = '-u -l 64 -b 0' if udp else ''
    out = client.cmd('iperf3 -c %s -p %d -t %d -J %s' % (server.IP(), port, seconds, options))
    try:
        end = json.loads(out)['end']
        if udp:
            received = end['sum']['packets'] - end['sum']['lost_packets']
            return '%.0f kpps, %.1f %% lost' % (received / 1000.0 / seconds, end['sum']['lost_percent'])
        return '%.2f Gb/s' % (end['sum_received']['bits_per_second'] / 1e9)
    except (ValueError, KeyError):
        return 'failed'


def main():
    kind = sys.argv[1] if len(sys.argv) > 1 else 'single'
    prefix = os.environ.get('MEMORY_PREFIX') or 'mm'
    if kind == 'single':
        topo = Single(n=int(sys.argv[2]) if len(sys.argv) > 2 else 8, prefix=prefix)
        ends = (prefix + 'h1', prefix + 'h2')
    elif kind == 'leafspine':
        topo = trimswitch.LeafSpine(prefix=prefix)
        ends = (prefix + 'a1', prefix + 'b1')
    else:
        print('usage: memory.py single [N] | leafspine', file=sys.stderr)
        return 2
    opts = os.environ.get('TRIMSWITCH_JAVA_OPTS')
    extra = os.environ.get('MEMORY_SWITCH_ARGS', '')

    def switch(name, **params):
        if opts is not None:
            params['javaOpts'] = opts
        return trimswitch.TrimSwitch(name, args=extra, **params)
    setLogLevel('warning')
    net = Mininet(topo=topo, switch=switch, controller=None, waitConnected=True)
    net.start()
    try:
        loss = net.pingAll()
        # A first burst, unmeasured: a switch just started runs its first packets while the JIT compiles its dataplane.
        client, server = net[ends[0]], net[ends[1]]
        iperf(client, server, 3, 5299)
        rate = iperf(client, server, 3, 5300)
        small = iperf(client, server, 3, 5301, udp=True)
        print('java options: %s' % (opts if opts is not None else trimswitch.DEFAULT_JAVA_OPTS + ' (default)'))
        print('ping loss %g %%, iperf3 %s -> %s: TCP %s, UDP %s' % (loss, ends[0], ends[1], rate, small))
        for sw in net.switches:
            pid = sw.pid_of_switch()
            print('%s: %d ports, RSS %.1f MiB, PSS %.1f MiB' % (sw.name, len(sw.attached), rss_kib(pid) / 1024.0,
                                                               pss_kib(pid) / 1024.0))
            if os.environ.get('MEMORY_MAPS'):
                print_maps(pid)
                # With -XX:NativeMemoryTracking=summary among the options: the JVM's own account.
                print(subprocess.run(['jcmd', str(pid), 'VM.native_memory', 'summary', 'scale=MB'],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True).stdout)
                # The heap's largest classes: what its live objects are.
                histogram = subprocess.run(['jcmd', str(pid), 'GC.class_histogram'], stdout=subprocess.PIPE,
                                           stderr=subprocess.STDOUT, universal_newlines=True).stdout.splitlines()
                print('\n'.join(histogram[:14] + histogram[-1:]))
    finally:
        net.stop()
    return 0


if __name__ == '__main__':
    sys.exit(main())
