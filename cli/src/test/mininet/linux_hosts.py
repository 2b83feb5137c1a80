"""Seven Mininet hosts, each with a vxlan interface to a UDP port of one `trimswitch run` in a namespace of its own
(lab.Lab.vxlan_star), with two traffic classes on every port: DSCP 10 in the reproduced switch's 16-packet queue that
trims, everything else (TCP) in a 1024-packet queue that drops. Ping between every pair; iperf3 TCP through two
100 Gb/s ports with no switch drop at all; then a 4:1 incast, four `trimswitch gen` senders (DSCP 10) at 20,000
datagrams a second each into a port limited to 0.2 Gb/s, while TCP goes out of the same port: four times what the port
can carry in whole datagrams, but a third of what it carries in headers, so that the header queue never fills however
fast the senders (as fast as they can, they overflow it on a quick host: the switch is right to drop, but that is not
what this checks). A switch thread that falls behind still takes a late burst that may overflow it: counted, and
"host too slow" when the receiver misses exactly those. Every incast packet must arrive whole or as a trimmed header, the switch's trim counts must agree with the receiver's, and the TCP flow must see no switch drop.
Run as root with /usr/bin/python3 (Mininet); needs ethtool and iperf3. Exit 0 passed, 1 failed, 3 host too slow (the
senders could not even fill the 0.2 Gb/s port). Nodes: PREFIX (ts + a number) + s1, h1..h7. E2E_PACKETS (3000) and
E2E_RATE (20000 datagrams a second per sender) set the incast.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'mininet'))

import lab  # noqa: E402
from lab import Failed  # noqa: E402

HOSTS = 7



def run(out):
    packets = lab.env_whole('E2E_PACKETS', 3000)
    rate = lab.env_whole('E2E_RATE', 20000)
    with lab.Lab(lab.name_prefix('ts')) as net:
        settings = lab.trimming_settings(fabric={'pipelines': 2, 'portsPerPipeline': 4}, idle='block', l2=True,
                                         metrics='127.0.0.1:9464')
        # Port 4 (host 5's) is the incast receiver's, at 0.2 Gb/s.
        switch, hosts = net.vxlan_star(HOSTS, settings, rates={4: 0.2}, javaOpts='')
        h = dict(enumerate(hosts, 1))
        out.say('starting the switch')
        net.start()
        sys.stdout.write(switch.log())

        out.say('ping between every pair of hosts')
        lab.ping_every_pair(hosts, addresses=['10.9.0.%d' % i for i in range(1, HOSTS + 1)])
        out.say('every pair pings')

        def no_drops(ports, numbers):
            # The kernel dropping at the switch's socket means this host could not run the switch fast enough: TCP
            # retransmits, and the switch counted it; the switch itself must drop nothing.
            for line in lab.no_drops(ports, numbers):
                out.say(line)

        out.say('iperf3 TCP from host 1 to host 2 through two idle 100 Gb/s ports')
        end = lab.tcp_burst(net, h[1], h[2], '10.9.0.2')
        moved = int(end['sum_received']['bytes'])
        out.say('iperf3 moved %d bytes at %.2f Gb/s, %d retransmissions' % (
            moved, end['sum_received']['bits_per_second'] / 1e9, end['sum_sent'].get('retransmits', 0)))
        no_drops(net.stats(switch), (0, 1))
        out.say("no switch drop on the TCP flow's ports")

        out.say("4:1 incast of %d datagrams per sender, at %d a second each, into host 5's 0.2 Gb/s port, with TCP from "
                "host 6 to host 5" % (packets, rate))
        lab.iperf3_server(net, h[5])
        received_json = os.path.join(net.scratch, 'received.json')
        for i in (1, 2, 3, 4):
            lab.ping(h[i], '10.9.0.5', count=1)
        receiver = lab.gen_receive(net, h[5], '10.9.0.5:666', 4 * packets, received_json)
        # A window well inside the TCP queue's 1024 packets: what TCP alone would lose there is not the switch's doing.
        tcp_json = os.path.join(net.scratch, 'iperf3-incast.json')
        tcp = net.popen(h[6], ['iperf3', '-c', '10.9.0.5', '-p', 5201, '-t', 4, '-w', '256K', '-J'], log=tcp_json)
        # Its control connection, then its data: the TCP flow is under way when the incast starts.
        lab.poll(10, 'the TCP flow from host 6 to start',
                 lambda: lab.still_running(tcp, "iperf3's client on host 6") and lab.tcp_connected(h[6], 5201, 2))
        senders = [lab.gen_send(net, h[i], '10.9.0.5:666', packets, rate, flow=i,
                                log=os.path.join(net.scratch, 'sender%d.log' % i)) for i in (1, 2, 3, 4)]
        for sender in senders:
            sender.wait()
        code = receiver.wait()
        tcp_code = tcp.wait()
        for process in senders + [receiver]:
            sys.stdout.write(lab.read_text(process.labLog))
        if code != 0 or any(sender.returncode != 0 for sender in senders):
            raise Failed('the receiver exited %d, the senders %s' % (code, [s.returncode for s in senders]))
        if tcp_code != 0:
            raise Failed("iperf3's client on host 6 exited %d: %s" % (tcp_code, lab.read_text(tcp_json)))
        ports = net.stats(switch)
        sys.stdout.write(net.stats_text(switch))
        header_full = ports[4].get('drops', {}).get('headerQueueFull', 0)
        if header_full:
            # A switch thread that fell behind takes what the kernel held for it in one burst, which can overflow the
            # header queue however slowly the senders send: counted, so the host is too slow only if the counts agree.
            received = lab.read_json(received_json)
            missing = sum(packets - flow['whole'] - flow['trimmed'] for flow in received['flows'].values())
            if missing != header_full:
                raise Failed('port 4 dropped %d headers (headerQueueFull), the receiver misses %d' % (header_full, missing))
            raise lab.HostTooSlow('the switch took the incast late, in bursts that overflowed port 4\'s header queue: '
                                  '%d headers dropped and counted, %d missing at the receiver' % (header_full, missing))
        no_drops(ports, (4, 5))
        tcp_queue, incast = ports[4]['queues']
        if tcp_queue['discard'] != 'drop' or tcp_queue['overflowed'] != 0:
            raise Failed('the TCP queue of port 4 overflowed: %s' % tcp_queue)
        if incast['discard'] != 'trim' or incast['queued'] <= 0:
            raise Failed('the incast never reached its queue: %s' % incast)
        end = lab.read_json(tcp_json)['end']
        out.say('TCP out of the incast\'s port: %.0f Mb/s in its own queue (deepest %d packets, none lost); the '
                'incast\'s queue: %d queued, %d met it full' % (end['sum_received']['bits_per_second'] / 1e6,
                                                                tcp_queue['maxDepth'], incast['queued'],
                                                                incast['overflowed']))
        out.say("no switch drop on the TCP flow's ports during the incast, which shares its egress port")
        out.say(lab.check_incast(lab.read_json(received_json), ports, packets, 4, [0, 1, 2, 3]))
        out.say(net.stop_switch(switch))


if __name__ == '__main__':
    sys.exit(lab.main('e2e', run))
