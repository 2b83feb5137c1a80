"""A live leaf-spine fabric on Mininet: three `trimswitch run` processes, each in a namespace of its own (two leaves
l1, l2 and a spine sp1), whose ports carry the fabric's Ethernet frames to each other in VXLAN over UDP on Mininet's
links. Four hosts, two behind each leaf, attach with vxlan interfaces. Every switch has two traffic classes: TCP in a
deep queue that drops, DSCP 10 in the reproduced switch's 16-packet queue that trims. Ping between every pair and
iperf3 TCP from one leaf to the other, across the spine; then a 3:1 incast of `trimswitch gen` senders (DSCP 10) into
host 3: two senders behind leaf 1, whose packets cross the spine's downlink to leaf 2 (limited to 0.2 Gb/s), and one
behind leaf 2, into host 3's own port (limited to 0.1 Gb/s). The senders are paced at 12 000 datagrams a second,
134 Mb/s each: enough to overflow both links, and smooth enough that six JVMs on two cores still read every datagram.
The spine trims what overflows its downlink and leaf 2 forwards those headers at high priority; leaf 2 trims what
overflows host 3's port. Every packet must arrive whole or as a header, and the receiver's count of headers must be
the spine's and leaf 2's trims together. Run as root with /usr/bin/python3 (Mininet); needs ethtool and iperf3.
Exit 0 passed, 1 failed, 3 host too slow (the senders could not even fill the spine's downlink). Nodes: PREFIX
(tf + a number) + l1, l2, sp1, h1..h4. E2E_PACKETS (3000) and E2E_RATE (12000) set the incast.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'mininet'))

import lab  # noqa: E402
from lab import Failed, HostTooSlow  # noqa: E402


def settings(ports):
    """One switch's settings, its ports given as (bind, remote, rateGbps or None). Header queues deep enough for the
    incast's every header: the senders trim faster than a slow port sends headers, and none may be lost here."""
    text = lab.trimming_settings(fabric={'pipelines': 1, 'portsPerPipeline': len(ports), 'headerQueuePackets': 16384},
                                 idle='block', l2=True, metrics='127.0.0.1:9464') + 'ports:\n'
    for bind, remote, rate in ports:
        text += '  - bind: %s\n    remote: %s\n' % (bind, remote)
        if rate is not None:
            text += '    rateGbps: %s\n' % rate
    return text


# Leaf 1: hosts 1 and 2, then the uplink to the spine's port 0. Leaf 2: host 3 (the incast's receiver, 0.1 Gb/s),
# host 4, then the uplink to the spine's port 1. The spine: leaf 1, then leaf 2 (its downlink limited to 0.2 Gb/s).
SWITCHES = {
    'l1': [('0.0.0.0:4790', '172.30.1.2:4790', None), ('0.0.0.0:4791', '172.30.2.2:4791', None),
           ('172.30.11.2:4800', '172.30.11.1:4800', None)],
    'l2': [('0.0.0.0:4792', '172.30.3.2:4792', 0.1), ('0.0.0.0:4793', '172.30.4.2:4793', None),
           ('172.30.12.2:4801', '172.30.12.1:4801', None)],
    'sp1': [('172.30.11.1:4800', '172.30.11.2:4800', None), ('172.30.12.1:4801', '172.30.12.2:4801', 0.2)],
}


def run(out):
    packets = lab.env_whole('E2E_PACKETS', 3000)
    rate = lab.env_whole('E2E_RATE', 12000)
    with lab.Lab(lab.name_prefix('tf', digits=3)) as net:
        switches = {}
        for name, ports in SWITCHES.items():
            config = os.path.join(net.scratch, '%s.yaml' % name)
            with open(config, 'w') as text:
                text.write(settings(ports))
            switches[name] = net.udp_switch(name, config, javaOpts='')
        h = {i: net.host('h%d' % i) for i in (1, 2, 3, 4)}
        # Links in the order of each switch's ports: hosts 1 and 2 behind leaf 1, 3 and 4 behind leaf 2, then the uplinks.
        for i, leaf in ((1, 'l1'), (2, 'l1'), (3, 'l2'), (4, 'l2')):
            net.link(h[i], switches[leaf], ip1='172.30.%d.2/30' % i, ip2='172.30.%d.1/30' % i)
        net.link(switches['sp1'], switches['l1'], ip1='172.30.11.1/30', ip2='172.30.11.2/30')
        net.link(switches['sp1'], switches['l2'], ip1='172.30.12.1/30', ip2='172.30.12.2/30')
        for i in (1, 2, 3, 4):
            # Each host's VTEP sends to its leaf's UDP port 4789 + i.
            net.after_build(lambda i=i: net.vxlan(h[i], '10.9.0.%d/24' % i, '172.30.%d.1' % i, '172.30.%d.2' % i,
                                                  4789 + i))
        out.say('starting %s' % ', '.join(SWITCHES))
        net.start()

        out.say('ping between every pair of hosts')
        lab.ping_every_pair(list(h.values()), addresses=['10.9.0.%d' % i for i in h])
        out.say('every pair pings, across the spine too')

        out.say('iperf3 TCP from host 1 (leaf 1) to host 4 (leaf 2) across the spine')
        end = lab.tcp_burst(net, h[1], h[4], '10.9.0.4')
        moved = int(end['sum_received']['bytes'])
        out.say('iperf3 moved %d bytes across the spine at %.2f Gb/s, %d retransmissions' % (
            moved, end['sum_received']['bits_per_second'] / 1e9, end['sum_sent'].get('retransmits', 0)))

        out.say('3:1 incast of %d datagrams per sender into host 3: hosts 1 and 2 across the spine, host 4 from its own '
                'leaf' % packets)
        before = {name: net.stats(switch) for name, switch in switches.items()}
        received_json = os.path.join(net.scratch, 'received.json')
        receiver = lab.gen_receive(net, h[3], '10.9.0.3:666', 3 * packets, received_json)
        senders = [lab.gen_send(net, h[i], '10.9.0.3:666', packets, rate, flow=i,
                                log=os.path.join(net.scratch, 'sender%d.log' % i)) for i in (1, 2, 4)]
        for sender in senders:
            sender.wait()
        code = receiver.wait()
        for process in senders + [receiver]:
            sys.stdout.write(lab.read_text(process.labLog))
        if code != 0 or any(sender.returncode != 0 for sender in senders):
            raise Failed('the receiver exited %d, the senders %s' % (code, [s.returncode for s in senders]))
        after = {name: net.stats(switch) for name, switch in switches.items()}
        sys.stdout.write(net.stats_text(switches['sp1']) + net.stats_text(switches['l2']))

        def grew(switch, port, key):
            return after[switch][port].get(key, 0) - before[switch][port].get(key, 0)

        received = lab.read_json(received_json)
        flows = received['flows']
        missing = 3 * packets - sum(flow['whole'] + flow['trimmed'] for flow in flows.values())
        overflowed = sum(p.get('drops', {}).get('socketOverflow', 0) for ports in after.values() for p in ports.values())
        if missing > 0 and overflowed >= missing:
            raise HostTooSlow("the kernel dropped %d datagrams at the switches' sockets; %d missing" % (overflowed, missing))
        if len(flows) != 3:
            raise Failed('expected 3 flows at the receiver, got %d: %s' % (len(flows), flows))
        for sender, flow in flows.items():
            if flow['whole'] + flow['trimmed'] != packets or flow['gaps'] != 0:
                raise Failed('%s: %d whole + %d trimmed of %d, %d missing' % (sender, flow['whole'], flow['trimmed'],
                                                                             packets, flow['gaps']))
        spine_trims = grew('sp1', 1, 'txTrimPackets')
        leaf2_trims = grew('l2', 0, 'txTrimPackets')
        leaf1_trims = sum(grew('l1', port, 'txTrimPackets') for port in range(3))
        if spine_trims == 0:
            raise HostTooSlow("two senders did not even fill the spine's 0.2 Gb/s downlink")
        if leaf1_trims != 0:
            # A leaf thread that fell behind takes what the kernel held for it in one burst, which can overflow a 100 Gb/s
            # port's 16-packet data queue however slowly the senders send: the host is too slow only if the counts agree.
            if received['trimmed'] != spine_trims + leaf2_trims + leaf1_trims:
                raise Failed("leaf 1's ports are idle enough never to trim, yet it trimmed %d, and the receiver saw %d "
                             "headers against %d trimmed in all" % (leaf1_trims, received['trimmed'],
                                                                     spine_trims + leaf2_trims + leaf1_trims))
            raise HostTooSlow("leaf 1 took the incast late, in bursts that overflowed its uplink's data queue: %d trimmed "
                              "and counted, every header at the receiver" % leaf1_trims)
        # Headers the spine trimmed leave leaf 2 as headers, with leaf 2's own trims: together what the receiver saw.
        if received['trimmed'] != spine_trims + leaf2_trims:
            raise Failed('the receiver saw %d headers; the spine trimmed %d and leaf 2 %d'
                         % (received['trimmed'], spine_trims, leaf2_trims))
        for name, ports in after.items():
            for number, port in ports.items():
                if port.get('droppedTrimPackets', 0) != 0:
                    raise Failed('%s port %d dropped trimmed packets: %s' % (name, number, port))
        out.say('incast: %d whole + %d trimmed of %d, none lost; the spine trimmed %d on its downlink, leaf 2 %d on '
                "host 3's port, leaf 1 none" % (received['whole'], received['trimmed'], 3 * packets, spine_trims,
                                               leaf2_trims))
        for switch in switches.values():
            out.say(net.stop_switch(switch))


if __name__ == '__main__':
    sys.exit(lab.main('fabric', run))
