#!/usr/bin/python3
"""A soak of the live switch on interface ports, on Mininet: three hosts, each on a link straight to a port of one
TrimSwitch (mininet/lab.py). Every 10 s cycle carries a TCP burst (iperf3, host 0 to host 2) and a flood of 64-byte UDP
datagrams (`trimswitch gen send`, host 2 to host 1) for BURST_SECONDS, then lets the switch drain. At the end of each
cycle it samples the switch's resident memory and its counters (`trimswitch stats --json`), and checks the counters'
identity over all ports: received + flood copies = sent + dropped, the kernel's ring overflow counted apart
(identity.py). At the end it says whether the goals held:
  - RSS after the first minute stays within +-16 MiB of its value at minute 1;
  - the identity is exact at every sample;
  - no drop reason appeared but the kernel's overflow.

Usage, as root, from the repository after `./mvnw -B -q package -DskipTests`:
  bench/soak/soak.py [SECONDS]      # default 600; 120 for a short run (it runs Debian's /usr/bin/python3)
Settings: FLOOD_RATE (datagrams/s, default 20000), BURST_SECONDS (default 7), TRIMSWITCH (default cli/trimswitch),
PREFIX (the nodes' names' beginning, default soak). Needs Mininet, iperf3 and socat. Everything it creates is removed on
exit, whatever happens. Exits 0 when every goal held, 1 when one did not (or the lab failed), 2 on a bad argument.
"""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'mininet'))

import lab  # noqa: E402
from lab import BadInput, Failed  # noqa: E402

CYCLE = 10


def whole(name, text, least=1):
    if not text.isdigit() or int(text) < least or int(text) > 999999999:
        raise BadInput('soak: %s must be a whole number from %d to 999999999, got %r' % (name, least, text))
    return int(text)


def soak(out):
    total = whole('SECONDS', sys.argv[1] if len(sys.argv) > 1 else '600', least=60)
    flood_rate = whole('FLOOD_RATE', os.environ.get('FLOOD_RATE', '20000'))
    burst = whole('BURST_SECONDS', os.environ.get('BURST_SECONDS', '7'))
    if burst >= CYCLE:
        raise BadInput('soak: BURST_SECONDS must be below the %d s cycle, got %d' % (CYCLE, burst))
    if os.geteuid() != 0:
        raise BadInput('soak: needs root (Mininet)')
    with lab.Lab(os.environ.get('PREFIX', 'soak')) as net:
        hosts = [net.host('h%d' % i, '10.77.0.%d/24' % (i + 1)) for i in range(3)]
        switch = net.switch('s1', idle='poll', javaOpts='')
        for host in hosts:
            net.link(host, switch)
        out.say('starting the switch')
        net.start()
        pid = switch.process.pid
        lab.ping_every_pair(hosts)
        lab.iperf3_server(net, hosts[2])
        # The flood's sink: a socket bound to its port, so that host 1 answers no "port unreachable".
        sink = net.popen(hosts[1], ['socat', '-u', 'UDP-RECV:9,bind=10.77.0.2', '/dev/null'])
        lab.poll(10, "the flood's sink bound", lambda: lab.still_running(sink, 'socat') and lab.udp_bound(hosts[1], 9))

        def rss_mib():
            with open('/proc/%d/status' % pid) as status:
                return next(int(line.split()[1]) for line in status if line.startswith('VmRSS:')) / 1024.0

        print('%6s %9s  %s' % ('time_s', 'rss_MiB', 'identity'), flush=True)
        samples, identity_failures, reasons = [], 0, set()
        started = time.time()
        while time.time() - started < total:
            cycle_start = time.time()
            tcp = net.popen(hosts[0], ['iperf3', '-c', '10.77.0.3', '-t', burst],
                            log=os.path.join(net.scratch, 'iperf3.log'))
            flood = lab.gen_send(net, hosts[2], '10.77.0.2:9', flood_rate * burst, flood_rate,
                                 args=('--size', 64, '--dscp', 0), log=os.path.join(net.scratch, 'flood.log'))
            if tcp.wait() != 0:
                raise Failed('iperf3 failed:\n' + lab.read_text(tcp.labLog))
            if flood.wait() != 0:
                raise Failed("the flood's sender failed:\n" + lab.read_text(flood.labLog))
            lab.still_running(switch.process, 'the switch')
            ports = lab.drained(net, switch, seconds=5)
            line, difference = lab.identity(ports)
            if difference != 0:
                identity_failures += 1
            for port in ports.values():
                reasons.update(r for r in port.get('drops', {}) if r not in lab.KERNEL_DROPS)
            elapsed, rss = int(time.time() - started), rss_mib()
            samples.append((elapsed, rss))
            print('%6d %9.1f  %s' % (elapsed, rss, line), flush=True)
            rest = CYCLE - (time.time() - cycle_start)
            if rest > 0:
                time.sleep(rest)  # the soak's own cadence: one cycle every 10 s

        out.say('last counters:')
        sys.stdout.write(net.stats_text(switch))
        after = [rss for elapsed, rss in samples if elapsed >= 60]
        base = after[0] if after else samples[-1][1]
        low, high = min(after or [base]), max(after or [base])
        within = high - base <= 16 and base - low <= 16
        out.say('RSS at minute 1 %.1f MiB, after it %.1f..%.1f MiB (%+.1f/%+.1f): %s +-16 MiB'
                % (base, low, high, low - base, high - base, 'within' if within else 'NOT within'))
        out.say('identity exact at every sample' if identity_failures == 0
                else 'identity NOT exact at %d samples' % identity_failures)
        out.say('no drop reason but the kernel\'s overflow' if not reasons
                else 'drop reasons other than overflow: %s' % ','.join(sorted(reasons)))
        net.stop_switch(switch)
        if not within or identity_failures or reasons:
            raise Failed('a goal did not hold')


if __name__ == '__main__':
    code = lab.main('soak', soak)
    sys.exit(code)
