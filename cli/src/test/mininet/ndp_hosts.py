"""Live NDP hosts through a live trimswitch: four Mininet hosts with vxlan interfaces to the switch's UDP ports (as
linux_hosts.py builds them, lab.Lab.vxlan_star), a 3:1 incast of `trimswitch host` senders into a receiver whose port
is limited to 0.1 Gb/s. The senders' initial windows overflow the port's 16-packet queue, so the switch trims; the
receiver NACKs the headers and pulls at 0.1 Gb/s, the senders retransmit. Checks that every byte of every flow
arrives, that the switch trimmed (its counters) and that the senders retransmitted on NACKs; then that a sender whose
packets do not fit the path's MTU says so in one line and exits 2. Run as root with /usr/bin/python3 (Mininet); needs
ethtool. Exit 0 passed, 1 failed, 3 host too slow (the senders could not even overflow the port). Nodes: PREFIX
(tn + a number) + s1, h1..h4.

The senders retransmit after 50 ms without progress (E2E_RTO_MS): on a busy two-core host a shorter timeout fires
while the hosts wait for a core, and the retransmissions it makes are not the ones this test is about. E2E_BYTES
(400000) is each flow's size, E2E_WINDOW (30) the senders' window.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'mininet'))

import lab  # noqa: E402
from lab import Failed, HostTooSlow  # noqa: E402

HOSTS = 4
RECEIVER = 4

SETTINGS = lab.trimming_settings(fabric={'pipelines': 2, 'portsPerPipeline': 2}, idle='block', l2=True,
                                  metrics='127.0.0.1:9464')


def run(out):
    size = lab.env_whole('E2E_BYTES', 400000)
    window = lab.env_whole('E2E_WINDOW', 30)
    rto_ms = lab.env_whole('E2E_RTO_MS', 50)
    with lab.Lab(lab.name_prefix('tn')) as net:
        switch, hosts = net.vxlan_star(HOSTS, SETTINGS, rates={RECEIVER - 1: 0.1}, javaOpts='')
        h = dict(enumerate(hosts, 1))
        target = '10.9.0.%d' % RECEIVER
        out.say('starting the switch')
        net.start()
        for i in range(1, HOSTS + 1):
            if i != RECEIVER and lab.ping(h[i], target, count=2) == 0:
                raise Failed('host %d cannot ping the receiver' % i)
        out.say('every sender pings the receiver')

        out.say("3:1 incast of %d bytes per flow into host %d's 0.1 Gb/s port, NDP pulling at 0.1 Gb/s"
                % (size, RECEIVER))
        receiver_json = os.path.join(net.scratch, 'receiver.json')
        receiver = lab.ndp_host(net, h[RECEIVER], ['--listen', target + ':666', '--rate-gbps', 0.1, '--expect-flows', 3,
                                                   '--timeout-s', 30], receiver_json)
        lab.poll(30, 'the receiver to bind %s:666' % target,
                 lambda: lab.still_running(receiver, 'the receiver') and 'receiving on' in lab.read_text(receiver.labLog))
        sender_jsons = [os.path.join(net.scratch, 'sender%d.json' % i) for i in range(1, HOSTS + 1) if i != RECEIVER]
        senders = [lab.ndp_host(net, h[i], ['--connect', target + ':666', '--size', size, '--rate-gbps', 1, '--window',
                                            window, '--rto-ms', rto_ms, '--timeout-s', 30], path)
                   for i, path in zip([i for i in range(1, HOSTS + 1) if i != RECEIVER], sender_jsons)]
        codes = [sender.wait() for sender in senders] + [receiver.wait()]
        for process in senders + [receiver]:
            sys.stdout.write(lab.read_text(process.labLog))
        if any(codes):
            raise Failed('a host exited with %s' % [code for code in codes if code][0])
        port = net.stats(switch)[RECEIVER - 1]
        sys.stdout.write(net.stats_text(switch))

        received = lab.read_json(receiver_json)['flows']
        sent = [lab.read_json(path) for path in sender_jsons]
        if len(received) != 3:
            raise Failed('the receiver saw %d flows' % len(received))
        for flow in received:
            if not flow['complete'] or flow['bytes'] != size:
                raise Failed('receiver: %s' % flow)
        for sender in sent:
            for flow in sender['flows']:
                if not flow['complete'] or flow['bytes'] != size:
                    raise Failed('sender: %s' % flow)
        trims = port['txTrimPackets']
        headers = sum(flow['headers'] for flow in received)
        retransmissions = sum(flow['retransmissions'] for s in sent for flow in s['flows'])
        nacks = sum(flow['headers'] for s in sent for flow in s['flows'])
        nacked = sum(flow['nackedRetransmissions'] for s in sent for flow in s['flows'])
        fcts = sorted(flow['fctUs'] for s in sent for flow in s['flows'])
        if trims == 0:
            raise HostTooSlow('three senders did not even overflow a 0.1 Gb/s port')
        if not (headers > 0 and nacks > 0 and nacked > 0):
            raise Failed('%d headers at the receiver, %d NACKs, %d retransmissions on NACKs' % (headers, nacks, nacked))
        goodput = 3 * size * 8 / (fcts[-1] * 1e3)
        out.say('incast: 3 x %d bytes all delivered; FCT %.1f..%.1f ms, %.3f Gb/s together into the 0.1 Gb/s port; '
                'the switch trimmed %d packets out of that port (%d at the ingress meters, %d deflected on drop); the '
                'receiver saw %d headers, the senders got %d NACKs and retransmitted %d packets, %d of them on a NACK'
                % (size, fcts[0] / 1e3, fcts[-1] / 1e3, goodput, trims, port.get('ingressTrimPackets', 0),
                   port.get('dodTrimPackets', 0), headers, nacks, retransmissions, nacked))

        out.say("a sender whose packets do not fit the path's MTU (vxlan's 1450 bytes) says so, and sends nothing")
        jumbo = net.run(h[1], net.tool('host', '--connect', target + ':666', '--size', 100000, '--payload-bytes', 8950,
                                       '--timeout-s', 5))
        if jumbo.code != 2 or len(jumbo.err.splitlines()) != 1 or 'lower --payload-bytes' not in jumbo.err:
            raise Failed('expected exit 2 and one line naming --payload-bytes, got %d: %s' % (jumbo.code, jumbo.text))
        sys.stdout.write(jumbo.err)
        out.say(net.stop_switch(switch))


if __name__ == '__main__':
    sys.exit(lab.main('ndp-hosts', run))
