"""How large a burst a port's receive ring absorbs while the switch takes none of it. Host h0 (MTU 1500) is on port 0 of
a TrimSwitch and host h1 on port 1. The switch is stopped (SIGSTOP), h0 sends a burst of frames of one size as fast as
it can to a unicast address no one has (the switch floods them to port 1), the switch is let go (SIGCONT), and its
counters say how many frames the kernel dropped because the ring was full (ringOverflow) or, on af_xdp ports
(TRIMSWITCH_PORT_KIND=af_xdp), because the fill ring had run dry (fillRingEmpty). Prints one line per burst:
"burst: N frames of B bytes: D ring drops (F at an empty fill ring)", for 64-byte and 1514-byte frames (a full frame
of the MTU), bursts of BURST_FRAMES (4096) and of BURST_FRAMES + 1000. Run as root with /usr/bin/python3 (Mininet).
Exit 0 done, 1 failed.
Nodes: PREFIX (tr + a number) + s1, h0, h1.
"""

import os
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'mininet'))

import lab  # noqa: E402
from lab import Failed  # noqa: E402

# Sent from the host's own address to 02:00:00:00:ee:01, which no one has: the switch floods it to port 1.
SENDER = '''
import socket, sys
count, size = int(sys.argv[1]), int(sys.argv[2])
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((sys.argv[3], 0))
frame = bytes.fromhex("02000000ee01") + s.getsockname()[4] + b"\\x88\\xb5" + bytes(size - 14)
for _ in range(count):
    s.send(frame)
'''


def ring_drops(port):
    """Port 0's kernel drops for want of room: a full ring, and an empty fill ring (af_xdp)."""
    drops = port.get('drops', {})
    return drops.get('ringOverflow', 0) + drops.get('fillRingEmpty', 0), drops.get('fillRingEmpty', 0)


def burst(net, switch, host, count, size):
    """COUNT frames of SIZE bytes from HOST while the switch is stopped; the ring drops they made, and those of them at
    an empty fill ring."""
    before = ring_drops(net.stats(switch)[0])
    pid = switch.pid_of_switch()
    os.kill(pid, signal.SIGSTOP)
    try:
        sent = net.run(host, ['/usr/bin/python3', '-c', SENDER, str(count), str(size), host.defaultIntf().name])
    finally:
        os.kill(pid, signal.SIGCONT)
    if sent.code != 0:
        raise Failed('the burst of %d frames of %d bytes was not sent: %s' % (count, size, sent.text))
    # The switch drains its ring. Its gauges sample the kernel's count ten times a second while it changes, but after
    # a quiet spell (the switch stopped) once a second at most: the count is read once a sample has surely come.
    lab.drained(net, switch)
    time.sleep(1.2)
    after = ring_drops(net.stats(switch)[0])
    return after[0] - before[0], after[1] - before[1]


def run(out):
    frames = lab.env_whole('BURST_FRAMES', 4096)
    with lab.Lab(lab.name_prefix('tr')) as net:
        hosts = [net.host('h%d' % i) for i in range(2)]
        switch = net.switch('s1', idle='poll')
        for host in hosts:
            net.link(host, switch, mtu=1500)
        net.start()
        for size in (64, 1514):
            for count in (frames, frames + 1000):
                out.say('%d frames of %d bytes: %d ring drops (%d at an empty fill ring)'
                        % ((count, size) + burst(net, switch, hosts[0], count, size)))


if __name__ == '__main__':
    sys.exit(lab.main('burst', run))
