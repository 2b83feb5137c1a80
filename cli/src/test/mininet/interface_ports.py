"""Four Mininet hosts, each on a link straight to a port of `trimswitch run` (TrimSwitch: its ports sit on the links'
interfaces, AF_PACKET, no tunnel). A settings file gives the queues (DSCP 10 in a 16-packet queue that trims, the rest
in a 1024-packet queue that drops) and port 3's rate of 0.1 Gb/s; Mininet's links give the interfaces. Ping between
every pair, and 9000-byte packets between hosts 0 and 1 (jumbo MTUs); iperf3 TCP from host 0 to host 1 (64 KB offload
frames cross the switch whole) with no switch drop; then a 3:1 incast of DSCP 10 datagrams from `trimswitch gen send`
into port 3: every datagram arrives whole or as a trimmed header, the switch trimmed, and its count of trimmed packets
sent is the receiver's count of headers. Run as root with /usr/bin/python3 (Mininet); needs iperf3. Exit 0 passed,
1 failed, 3 host too slow (three senders could not even fill a 0.1 Gb/s port). Nodes: PREFIX (ti + a number) + s1, h0..h3.
E2E_PACKETS (3000) and E2E_RATE (10000000) set the incast's datagrams per sender and their pace.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'mininet'))

import lab  # noqa: E402
from lab import Failed  # noqa: E402

HOSTS = 4

# Header queues deep enough for the whole burst's headers: at 0.1 Gb/s the port sends them slower than three senders trim.
SETTINGS = lab.trimming_settings(fabric={'headerQueuePackets': 16384}) + '''ports:
  - {}
  - {}
  - {}
  - {rateGbps: 0.1}    # the incast receiver's port; Mininet's links give the interfaces
'''


def run(out):
    packets = lab.env_whole('E2E_PACKETS', 3000)
    rate = lab.env_whole('E2E_RATE', 10000000)
    with lab.Lab(lab.name_prefix('ti')) as net:
        config = os.path.join(net.scratch, 'switch.yaml')
        with open(config, 'w') as settings:
            settings.write(SETTINGS)
        hosts = [net.host('h%d' % i, '10.9.0.%d/24' % (i + 1)) for i in range(HOSTS)]
        # The launcher's own JVM options: the deep header queues want more heap than a Mininet lab's default switch.
        switch = net.switch('s1', config=config, idle='poll', javaOpts='')
        for i, host in enumerate(hosts):
            # Hosts 0 and 1 are wired for jumbo frames: a 9000-byte MTU at both ends.
            net.link(host, switch, mtu=9000 if i <= 1 else None)
        out.say('starting the switch')
        net.start()
        sys.stdout.write(switch.log())
        if 'interface %s (AF_PACKET' % switch.intfs[4].name not in switch.log():
            raise Failed('port 3 is not on its interface')

        out.say('ping between every pair of hosts')
        lab.ping_every_pair(hosts)
        out.say('every pair pings')
        if lab.ping(hosts[0], '10.9.0.2', count=2, size=8972, dont_fragment=True) == 0:
            raise Failed('no jumbo frame from host 0 to host 1')
        out.say('a 9000-byte IP packet crosses the switch whole between the jumbo ports')

        out.say('iperf3 TCP from host 0 to host 1 through two idle 100 Gb/s ports')
        end = lab.tcp_burst(net, hosts[0], hosts[1], '10.9.0.2', least=1000000)
        ports = net.stats(switch)
        moved = int(end['sum_received']['bytes'])
        for port in (0, 1):
            if ports[port].get('drops'):
                raise Failed('port %d dropped %s' % (port, ports[port]['drops']))
        frames, segments = ports[0]['rxDatagrams'], ports[0]['rxSegments']
        # veths pass TCP's offload frames: the switch must have taken them whole, each counted as the segments it carries.
        if moved / max(frames, 1) <= 3000:
            raise Failed('%d frames for %d bytes: offload frames did not cross whole' % (frames, moved))
        if segments <= 2 * frames:
            raise Failed('%d frames counted as %d segments' % (frames, segments))
        out.say('iperf3 moved %d bytes at %.2f Gb/s in %d frames (%.0f B each), %d retransmissions, no switch drop'
                % (moved, end['sum_received']['bits_per_second'] / 1e9, frames, moved / max(frames, 1),
                   end['sum_sent'].get('retransmits', 0)))
        out.say("no switch drop on the TCP flow's ports")

        out.say("3:1 incast of %d DSCP 10 datagrams per sender, as fast as they can, into host 3's 0.1 Gb/s port"
                % packets)
        received_json = os.path.join(net.scratch, 'received.json')
        for host in hosts[:3]:
            lab.ping(host, '10.9.0.4', count=1)
        receiver = lab.gen_receive(net, hosts[3], '10.9.0.4:666', 3 * packets, received_json)
        senders = [lab.gen_send(net, hosts[i], '10.9.0.4:666', packets, rate, flow=i,
                                log=os.path.join(net.scratch, 'sender%d.log' % i)) for i in range(3)]
        for sender in senders:
            sender.wait()
        code = receiver.wait()
        for sender in senders:
            sys.stdout.write(lab.read_text(sender.labLog))
        sys.stdout.write(lab.read_text(receiver.labLog))
        if code != 0 or any(sender.returncode != 0 for sender in senders):
            raise Failed('the receiver exited %d, the senders %s' % (code, [s.returncode for s in senders]))
        ports = net.stats(switch)
        sys.stdout.write(net.stats_text(switch))
        out.say(lab.check_incast(lab.read_json(received_json), ports, packets, 3, [0, 1, 2]))
        out.say(net.stop_switch(switch))


if __name__ == '__main__':
    sys.exit(lab.main('e2e', run))
