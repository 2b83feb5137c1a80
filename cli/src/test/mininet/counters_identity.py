"""The live switch's counters add up: three Mininet hosts, each on a link straight to a port of `trimswitch run`
(TrimSwitch, interface ports). Pings between every pair (ARP's broadcasts are flooded), an iperf3 TCP burst, a burst of
64-byte datagrams, and five frames to IEEE 802.1D reserved group addresses (LLDP, PAUSE) from host 0, which must reach
no host. Once the switch has drained, over all ports (lab.identity):
  received + the extra copies flooding made = sent + dropped (by reason), the kernel's ring overflow apart;
and port 0 counts the five reserved-group frames as reservedGroup. Run as root with /usr/bin/python3 (Mininet, scapy);
needs iperf3 and socat. Exit 0 passed, 1 failed, 3 host too slow. Nodes are named PREFIX (tc + a number) + s1, h0..h2.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'mininet'))

import lab  # noqa: E402
from lab import Failed  # noqa: E402

# Counts the frames to a reserved group address that reach the interface in 4 s; says "ready" once it listens.
SNIFF = '''import sys
from scapy.all import sniff
frames = sniff(iface=sys.argv[1], timeout=4, started_callback=lambda: print("ready", flush=True),
               lfilter=lambda f: f.dst.startswith("01:80:c2:00:00:0"))
print(len(frames), flush=True)'''
# Three LLDP frames, a PAUSE frame and a spanning-tree one, from the interface.
SEND = '''import sys
from scapy.all import Ether, Raw, sendp
for dst, kind in [("01:80:c2:00:00:0e", 0x88cc)] * 3 + [("01:80:c2:00:00:01", 0x8808), ("01:80:c2:00:00:00", 0x0026)]:
    sendp(Ether(dst=dst, type=kind) / Raw(b"\\0" * 46), iface=sys.argv[1], verbose=False)'''


def run(out):
    with lab.Lab(lab.name_prefix('tc')) as net:
        hosts = [net.host('h%d' % i, '10.78.0.%d/24' % (i + 1)) for i in range(3)]
        switch = net.switch('s1', idle='poll')
        for host in hosts:
            net.link(host, switch)
        net.start()
        lab.ping_every_pair(hosts)
        out.say('every pair pings')

        lab.iperf3_server(net, hosts[2])
        sink = net.popen(hosts[1], ['socat', '-u', 'UDP-RECV:9,bind=10.78.0.2', '/dev/null'])
        lab.poll(10, "the datagrams' sink bound", lambda: lab.still_running(sink, 'socat') and lab.udp_bound(hosts[1], 9))
        lab.iperf3(net, hosts[0], '10.78.0.3', 2)
        flood = net.run(hosts[2], net.tool('gen', 'send', '--to', '10.78.0.2:9', '--size', 64, '--rate', 20000,
                                           '--count', 20000, '--dscp', 0))
        if flood.code != 0:
            raise Failed('the flood exited %d: %s' % (flood.code, flood.text))

        # Captures on hosts 1 and 2 see whether any reserved-group frame got through.
        logs = [os.path.join(net.scratch, 'sniff%d.txt' % i) for i in (1, 2)]
        sniffers = [net.popen(host, ['/usr/bin/python3', '-c', SNIFF, host.defaultIntf().name], log=log)
                    for host, log in zip(hosts[1:], logs)]
        for sniffer, log in zip(sniffers, logs):
            lab.poll(30, 'a capture to start', lambda: lab.still_running(sniffer, 'a capture')
                     and 'ready' in lab.read_text(log))
        sent = net.run(hosts[0], ['/usr/bin/python3', '-c', SEND, hosts[0].defaultIntf().name])
        if sent.code != 0:
            raise Failed('could not send the reserved-group frames: %s' % sent.text)
        for sniffer in sniffers:
            sniffer.wait(30)

        ports = lab.drained(net, switch)
        line, difference = lab.identity(ports)
        out.say(line)
        if difference != 0:
            raise Failed('the counters do not add up: %s' % ports)
        out.say('the counters add up')
        reserved = ports[0].get('drops', {}).get('reservedGroup', 0)
        if reserved != 5:
            raise Failed('port 0 counted %d reservedGroup frames, not 5: %s' % (reserved, ports))
        for number, log in zip((1, 2), logs):
            seen = lab.read_text(log).split()[-1:]
            if seen != ['0']:
                raise Failed('host %d received %s reserved-group frames' % (number, ' '.join(seen) or 'an unknown count of'))
        out.say('5 reserved-group frames counted at port 0, none forwarded')
        net.stop_switch(switch)


if __name__ == '__main__':
    sys.exit(lab.main('e2e', run))
