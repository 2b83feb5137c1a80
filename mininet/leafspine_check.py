"""The seed's leaf-spine in Mininet, checked: a ping between every pair, then an NDP flow from rack A to rack B.

    sudo /usr/bin/python3 mininet/leafspine_check.py [PREFIX]

Three trimswitch spines, two Linux leaves, three hosts a rack (NdpHost). One `trimswitch host` flow of SIZE bytes
(400000) sprayed over 3 source ports from a1 to b1, whose receiver pulls at 0.1 Gb/s; each spine's port down to leaf B
runs at 0.1 Gb/s. Passes (exit 0, "check: passed") when no ping is lost, both ends exit 0 with every byte, and the
spines together sent at least as many packets towards rack B as the flow has. Node names begin with PREFIX ('mc').
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mininet.log import setLogLevel  # noqa: E402
from mininet.net import Mininet  # noqa: E402

import trimswitch  # noqa: E402

SIZE = int(os.environ.get('SIZE', '400000'))
PAYLOAD = 1398


def spine_packets_down(net):
    """Packets the spines sent out of their port 1, towards leaf B."""
    total = 0
    for spine in net.switches:
        for port in json.loads(spine.stats('--json')):
            if port.get('port') == 1:
                total += port.get('txPackets', 0)
    return total


def main():
    prefix = sys.argv[1] if len(sys.argv) > 1 else 'mc'
    setLogLevel('warning')
    net = Mininet(topo=trimswitch.LeafSpine(prefix=prefix, rate=0.1), switch=trimswitch.TrimSwitch,
                  host=trimswitch.NdpHost, controller=None, waitConnected=True)
    failures = []
    net.start()
    try:
        loss = net.pingAll()
        print('check: pingall %g%% dropped' % loss)
        if loss != 0:
            failures.append('pings were lost')
        sender, receiver = net[prefix + 'a1'], net[prefix + 'b1']
        before = spine_packets_down(net)
        received = receiver.ndp_receive(rate=0.1, expectFlows=1)
        sent = sender.ndp_send(receiver, size=SIZE, spray=3, rate=0.1)
        sent = sender.ndp_report(sent)
        received = receiver.ndp_report(received)
        down = spine_packets_down(net) - before
        for name, report in (('sender', sent), ('receiver', received)):
            flows = report['flows']
            delivered = sum(flow.get('bytes', 0) for flow in flows)
            fct = ', '.join('%.1f ms' % (flow.get('fctUs', 0) / 1000.0) for flow in flows)
            print('check: ndp %s exit %d, %d bytes, FCT %s' % (name, report['exit'], delivered, fct))
            if report['exit'] != 0 or delivered != SIZE:
                failures.append('the NDP %s did not deliver %d bytes:\n%s' % (name, SIZE, report['output']))
        packets = -(-SIZE // PAYLOAD)
        print('check: the spines sent %d packets towards rack B (the flow has %d)' % (down, packets))
        if down < packets:
            failures.append('the spines sent fewer packets than the flow has')
    finally:
        net.stop()
    for failure in failures:
        print('check: failed: ' + failure)
    print('check: passed' if not failures else 'check: FAILED')
    return 0 if not failures else 1


if __name__ == '__main__':
    sys.exit(main())
