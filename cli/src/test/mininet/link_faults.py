"""The faults a lab's links go through while `trimswitch run` forwards between two Mininet hosts (interface ports,
--idle poll), one per run: link_faults.py FAULT [PREFIX], with FAULT one of
  flap-switch-side  the switch's end of a link set down, then up again
  flap-host-side    the host's end set down (the switch's end loses its carrier), then up again
  recreate          the veth deleted, then made again under the same names
  mtu               the MTU raised to 9000 on both ends, then lowered on the switch's end
  second-switch     a second switch on the same interface, with its own counters file or the same one; then the first
                    killed: stats and ctl say it died, and a new switch takes its interfaces, counters and socket
  idle-cpu          a port's link set down and another's veth deleted under --idle poll: the idle switch must not spin
  move-port         `ctl del-port` then `ctl add-port` onto a new Mininet link while the switch runs, with a capture
Each checks the switch's lines, its counters (`stats --json`) and what the hosts see (ping). Run as root with
/usr/bin/python3 (Mininet); exit 0 passed, 1 failed, 3 host too slow. The switch (TrimSwitch, in a namespace of its own)
and both hosts are named PREFIX (tl + a number) + s1, h0, h1; everything is removed on exit, whatever happens.
"""

import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'mininet'))

import lab  # noqa: E402
from lab import Failed  # noqa: E402

FAULTS = ('flap-switch-side', 'flap-host-side', 'recreate', 'mtu', 'second-switch', 'idle-cpu', 'move-port')
METRICS = '127.0.0.1:9464'


def stat(ports, port, key):
    """A counter of a port as `stats --json` shows it; a drop reason as drops.REASON (0 when absent)."""
    if key.startswith('drops.'):
        return ports[port].get('drops', {}).get(key[6:], 0)
    return ports[port][key]


class Faults(object):
    def __init__(self, net, out):
        self.net, self.out = net, out
        self.h0 = net.host('h0', '10.9.0.1/24')
        self.h1 = net.host('h1', '10.9.0.2/24')
        self.sw = net.switch('s1', idle='poll', metrics=METRICS)
        net.link(self.h0, self.sw)
        net.link(self.h1, self.sw)
        self.i1 = '%s-eth0' % self.h1.name  # host 1's end of its link, which move-port replaces

    @property
    def p0(self):
        return self.sw.intfs[1].name

    @property
    def p1(self):
        return self.sw.intfs[2].name

    def port1(self):
        return 'port 1 (%s)' % self.p1

    def pin_neighbours(self):
        """Each host knows the other's MAC address for good: no ARP of their own crosses the switch between the test's
        counts (a stale entry's probe would be a frame the test did not send)."""
        i0, i1 = self.h0.defaultIntf().name, self.i1
        mac0 = self.h0.cmd('cat /sys/class/net/%s/address' % i0).strip()
        mac1 = self.h1.cmd('cat /sys/class/net/%s/address' % i1).strip()
        self.h0.cmd('ip neigh replace 10.9.0.2 lladdr %s nud permanent dev %s' % (mac1, i0))
        self.h1.cmd('ip neigh replace 10.9.0.1 lladdr %s nud permanent dev %s' % (mac0, i1))

    def pings(self, count, wait=2):
        """How many of COUNT echo requests from host 0 to host 1 got a reply."""
        return lab.ping(self.h0, '10.9.0.2', count=count, wait=wait)

    def stats(self):
        return self.net.stats(self.sw)

    def port_up_metric(self, port):
        """The value Prometheus scrapes for trimswitch_port_up of PORT, read in the switch's namespace."""
        script = ('import sys, urllib.request\n'
                  'for line in urllib.request.urlopen("http://%s/metrics", timeout=5).read().decode().splitlines():\n'
                  '    if line.startswith("trimswitch_port_up{") and "port=\\"%d\\"" in line:\n'
                  '        print(int(float(line.split()[-1])))\n' % (METRICS, port))
        return self.net.run(self.sw, ['/usr/bin/python3', '-c', script]).out.strip()

    def line(self, text, seconds=5):
        lab.await_line(self.sw, text, seconds)

    def start(self):
        self.out.say('starting the switch on %s and %s, --idle poll' % (self.p0, self.p1))
        self.net.start()
        self.pin_neighbours()
        if self.pings(2) == 0:
            raise Failed('host 0 cannot ping host 1 through the switch')
        self.out.say('host 0 pings host 1')

    def set_link(self, side, state):
        if side == 'switch':
            self.sw.cmd('ip link set %s %s' % (self.p1, state))
        else:
            self.h1.cmd('ip link set %s %s' % (self.i1, state))

    def flap(self, side):
        """Takes port 1's link down from SIDE: what the switch should send meanwhile is counted as linkDown (neither as
        sent nor as txBusy); brought up again, the very first ping gets through."""
        ports = self.stats()
        sent_before = stat(ports, 1, 'txPackets')
        if stat(ports, 1, 'up') is not True:
            raise Failed('port 1 is not up in stats before the fault')
        self.set_link(side, 'down')
        self.line('%s: down' % self.port1())
        self.out.say('the switch says: %s: down' % self.port1())
        if self.pings(3, 1) > 0:
            raise Failed('host 0 pinged host 1 across a link that is down')
        ports = self.stats()
        down, sent, busy = stat(ports, 1, 'drops.linkDown'), stat(ports, 1, 'txPackets'), stat(ports, 1, 'drops.txBusy')
        if stat(ports, 1, 'up') is not False:
            raise Failed('stats does not show port 1 down')
        metric = self.port_up_metric(1)
        if metric != '0':
            raise Failed("Prometheus does not show port 1 down: trimswitch_port_up is '%s'" % metric)
        if down < 3:
            raise Failed('3 echo requests towards a down link, %d counted as linkDown' % down)
        if sent != sent_before:
            raise Failed('port 1 counted frames as sent while its link was down: txPackets %d -> %d' % (sent_before, sent))
        if busy != 0:
            raise Failed('frames towards a down link counted as txBusy (%d)' % busy)
        self.out.say('while down: %d frames counted as linkDown, none as sent or txBusy; stats and Prometheus show port 1'
                     ' down' % down)
        self.set_link(side, 'up')
        self.line('%s: up' % self.port1())
        # One echo request, not retried: if the switch lost the first frame after the link came back, no reply comes.
        if self.pings(1, 3) == 0:
            raise Failed('the first ping after the link came up was lost')
        if stat(self.stats(), 1, 'up') is not True:
            raise Failed('stats does not show port 1 up again')
        if self.port_up_metric(1) != '1':
            raise Failed('Prometheus does not show port 1 up again')
        self.out.say('up again: the first ping crossed; stats and Prometheus show port 1 up')

    def rewire(self):
        """The veth between the switch's port 1 and host 1 made again under the same names, in their namespaces."""
        h1intf = self.i1
        made = subprocess.run(['ip', 'link', 'add', self.p1, 'netns', str(self.sw.pid), 'type', 'veth', 'peer', 'name',
                               h1intf, 'netns', str(self.h1.pid)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if made.returncode != 0:
            raise Failed('could not make the veth again: %s' % made.stdout.decode(errors='replace'))
        self.sw.cmd('ip link set %s up' % self.p1)
        self.h1.cmd('sysctl -qw net.ipv6.conf.%s.disable_ipv6=1' % h1intf)
        self.h1.cmd('ip addr add 10.9.0.2/24 dev %s' % h1intf)
        self.h1.cmd('ip link set %s up' % h1intf)

    def recreate(self):
        self.h1.cmd('ip link del %s' % self.i1)
        self.line('%s: gone' % self.port1())
        if stat(self.stats(), 1, 'up') is not False:
            raise Failed('stats does not show port 1 down while its veth is gone')
        self.out.say('the switch says: %s: gone' % self.port1())
        made = time.time()
        self.rewire()
        # The re-made veth has a new MAC address: the hosts learn it.
        self.pin_neighbours()
        self.line('%s: back, ifindex' % self.port1())
        back_ms = int((time.time() - made) * 1000)
        if back_ms > 1000:
            raise Failed('port 1 re-attached %d ms after its veth was made again (more than a second)' % back_ms)
        index = self.sw.cmd('cat /sys/class/net/%s/ifindex' % self.p1).strip()
        if '%s: back, ifindex %s' % (self.port1(), index) not in self.sw.log():
            raise Failed("the switch's 'back' line does not name the new ifindex %s" % index)
        self.line('%s: up' % self.port1())
        if not any(self.pings(1, 1) for _ in range(10)):
            raise Failed('host 0 cannot ping host 1 over the re-made veth')
        back = [line for line in self.sw.log().splitlines() if '%s: back' % self.port1() in line][-1]
        self.out.say('re-made: %s (about %d ms after), ping works again' % (back.replace('trimswitch: ', '', 1), back_ms))

    def jumbo(self, count, wait):
        return lab.ping(self.h0, '10.9.0.2', count=count, wait=wait, size=8972, dont_fragment=True)

    def mtu(self):
        if self.jumbo(1, 1) > 0:
            raise Failed('a 9000-byte packet crossed 1500-byte links')
        for host, port in ((self.h0, self.p0), (self.h1, self.p1)):
            self.sw.cmd('ip link set %s mtu 9000' % port)
            host.cmd('ip link set %s mtu 9000' % host.defaultIntf().name)
        self.line('port 0 (%s): mtu 9000' % self.p0)
        self.line('%s: mtu 9000' % self.port1())
        if self.jumbo(3, 2) < 1:
            raise Failed('9000-byte packets did not cross after the MTU was raised')
        ports = self.stats()
        if stat(ports, 1, 'drops.mtuExceeded') != 0:
            raise Failed('port 1 dropped frames as mtuExceeded after its MTU was raised')
        self.out.say('MTU raised to 9000: the switch said so, and 9000-byte packets cross both ways')
        self.sw.cmd('ip link set %s mtu 1500' % self.p1)
        self.line('%s: mtu 1500' % self.port1())
        sent_before = stat(ports, 1, 'txPackets')
        if self.jumbo(3, 1) > 0:
            raise Failed('9000-byte packets crossed a port whose MTU was lowered to 1500')
        ports = self.stats()
        if stat(ports, 1, 'drops.mtuExceeded') < 3:
            raise Failed('3 9000-byte packets towards a 1500-byte port, %d counted as mtuExceeded'
                         % stat(ports, 1, 'drops.mtuExceeded'))
        if stat(ports, 1, 'txPackets') != sent_before:
            raise Failed('frames refused for the MTU were counted as sent: txPackets %d -> %d: %s'
                         % (sent_before, stat(ports, 1, 'txPackets'), ports))
        if self.pings(2) == 0:
            raise Failed('small packets no longer cross after the MTU was lowered')
        self.out.say('MTU lowered to 1500 on the switch\'s end: 9000-byte frames counted as mtuExceeded, not as sent; '
                     'small ones cross')

    def one_line(self, result, code, text, what):
        lines = result.text.splitlines()
        if result.code != code or len(lines) != 1 or text not in result.text:
            raise Failed('%s exited %d, not %d with one line saying %r:\n%s' % (what, result.code, code, text, result.text))
        return lines[0]

    def second_switch(self):
        first = self.sw.process.pid
        second = os.path.join(self.net.scratch, 'second.counters')
        for counters, label in ((second, '--counters %s' % second), (self.sw.countersFile, 'the same counters file')):
            result = self.net.run(self.sw, self.net.tool('run', '-i', '0@' + self.p0, '--idle', 'poll', '--metrics',
                                                         'off', '--counters', counters))
            line = self.one_line(result, 2, 'process %d' % first, 'a second switch on %s' % self.p0)
            self.out.say('refused (%s): %s' % (label, line))
        # Killed outright, the first switch leaves its lock file behind: the next switch takes it over.
        os.kill(first, signal.SIGKILL)
        self.sw.process.wait()
        # Its counters file stays too: stats must not show a dead switch's frozen counters as if it ran.
        stats = self.net.run(self.sw, self.net.tool('stats', '--counters', self.sw.countersFile))
        line = self.one_line(stats, 2, "dead switch's (process %d" % first, 'stats after SIGKILL')
        self.out.say('stats after SIGKILL: %s' % line)
        ctl = self.net.ctl(self.sw, 'show')
        line = self.one_line(ctl, 2, 'a switch that died leaves it', 'ctl after SIGKILL')
        self.out.say('ctl after SIGKILL: %s' % line)
        self.net.relaunch(self.sw)
        if self.pings(2) == 0:
            raise Failed('host 0 cannot ping host 1 through the switch that took over')
        text = self.sw.log()
        if 'replaced the counters a dead switch (process %d) left' % first not in text:
            raise Failed("the new switch did not say it replaced the dead one's counters:\n" + text)
        if '(replaced one a stopped switch left)' not in text:
            raise Failed("the new switch did not replace the dead one's control socket:\n" + text)
        if self.net.ctl(self.sw, 'show').code != 0:
            raise Failed('ctl cannot reach the new switch')
        if self.net.run(self.sw, self.net.tool('stats', '--counters', self.sw.countersFile)).code != 0:
            raise Failed("stats cannot read the new switch's counters")
        self.out.say('after SIGKILL of the first, a new switch takes the interfaces over and forwards')
        lock = '/run/trimswitch/%s/%s.lock' % (self.net.namespace_inode(self.sw), self.p0)
        self.out.say(self.net.stop_switch(self.sw))
        if os.path.exists(lock):
            raise Failed('the stopped switch left its lock file behind')

    def idle_cpu(self):
        # Port 0's link down on the switch's side (the kernel flags the fall on its socket), port 1's veth gone.
        self.sw.cmd('ip link set %s down' % self.p0)
        self.line('port 0 (%s): down' % self.p0)
        self.h1.cmd('ip link del %s' % self.i1)
        self.line('%s: gone' % self.port1())
        time.sleep(1)
        pid = self.sw.process.pid

        def ticks():
            with open('/proc/%d/stat' % pid) as stat_file:
                fields = stat_file.read().rsplit(')', 1)[1].split()
            return int(fields[11]) + int(fields[12])  # utime and stime, fields 14 and 15

        hz = os.sysconf('SC_CLK_TCK')
        before = ticks()
        time.sleep(3)
        used = ticks() - before
        # A core spinning would use 3 s; an idle switch a few hundredths.
        if used > 3 * hz // 4:
            raise Failed('the idle switch used %d ticks of %d in 3 s (more than a quarter of a core) with a port down '
                         'and one gone' % (used, 3 * hz))
        self.out.say('port 0 down and port 1 gone, the idle switch used %d ms of CPU in 3 s' % (used * 1000 // hz))

    def move_port(self):
        ctl = self.net.ctl
        capture = os.path.join(self.net.scratch, 'port1.pcapng')
        if ctl(self.sw, 'capture', 1, 'start', capture).code != 0:
            raise Failed('could not start a capture of port 1')
        old = self.p1
        result = ctl(self.sw, 'del-port', 1)
        if 'port 1 (%s) removed' % old not in result.out.splitlines():
            raise Failed('del-port 1 did not say it removed port 1: %s' % result.text)
        self.line('port 1 (%s): removed' % old)
        if os.path.exists('/run/trimswitch/%s/%s.lock' % (self.net.namespace_inode(self.sw), old)):
            raise Failed("the removed port's interface is still locked")
        if self.pings(3, 1) > 0:
            raise Failed('host 0 pinged host 1 through a removed port')
        removed = stat(self.stats(), 1, 'drops.portRemoved')
        if removed < 3:
            raise Failed('3 echo requests towards a removed port, %d counted as portRemoved' % removed)
        show = ctl(self.sw, 'show').out
        if not re.search(r'^1 +interface +%s +removed ' % re.escape(old), show, re.M):
            raise Failed('ctl show does not list port 1 as removed:\n' + show)
        self.out.say('removed: %d frames counted as portRemoved; its interface is free' % removed)
        # Host 1 comes back on a new Mininet link: new interfaces at both ends, a new MAC on the host's side.
        self.sw.cmd('ip link del %s' % old)
        link = self.net.link(self.h1, self.sw, ip1='10.9.0.2/24')
        new = link.intf2.name
        self.i1 = link.intf1.name
        self.pin_neighbours()
        result = ctl(self.sw, 'add-port', '1@' + self.p0)
        self.one_line(result, 2, '', "add-port onto port 0's interface")
        result = ctl(self.sw, 'add-port', '1@nosuch0')
        self.one_line(result, 2, 'interface nosuch0 does not exist here', 'add-port onto an interface that does not exist')
        result = ctl(self.sw, 'add-port', '1@' + new, '--rate-gbps', 10)
        if 'port 1 added on %s' % new not in result.out:
            raise Failed('add-port 1@%s did not add it: %s' % (new, result.text))
        self.line('port 1 (%s): added, ifindex' % new)
        self.line('port 1 (%s): up' % new)
        if self.pings(3) == 0:
            raise Failed("host 0 cannot ping host 1 on port 1's new interface")
        show = ctl(self.sw, 'show').out
        if not re.search(r'^1 +interface +%s +up +10 ' % re.escape(new), show, re.M):
            raise Failed('ctl show does not list port 1 up on %s at 10 Gb/s:\n%s' % (new, show))
        result = ctl(self.sw, 'capture', 1, 'stop')
        found = re.search(r'^port 1: ([0-9]+) frames written', result.out, re.M)
        if not found or int(found.group(1)) < 6:
            raise Failed('the capture of port 1 holds fewer than the 3 requests and 3 replies: %s' % result.text)
        macs = ctl(self.sw, 'show', 'macs').out
        mac1 = self.h1.cmd('cat /sys/class/net/%s/address' % self.i1).strip()
        if not re.search(r'^1 +%s +[0-9.]+$' % re.escape(mac1), macs, re.M):
            raise Failed("ctl show macs does not list host 1's %s on port 1:\n%s" % (mac1, macs))
        self.out.say('added on %s at 10 Gb/s: ping works again; the capture kept %s frames across the move; '
                     'nosuch0 refused; show macs lists host 1 on port 1' % (new, found.group(1)))


def run(out):
    if len(sys.argv) < 2 or sys.argv[1] not in FAULTS:
        raise lab.BadInput('link_faults.py: name the fault: %s' % ', '.join(FAULTS))
    fault = sys.argv[1]
    with lab.Lab(lab.name_prefix('tl', 2)) as net:
        faults = Faults(net, out)
        faults.start()
        if fault in ('flap-switch-side', 'flap-host-side'):
            faults.flap(fault.split('-')[1])
        elif fault == 'recreate':
            faults.recreate()
        elif fault == 'mtu':
            faults.mtu()
        elif fault == 'second-switch':
            faults.second_switch()
            return
        elif fault == 'idle-cpu':
            faults.idle_cpu()
        elif fault == 'move-port':
            faults.move_port()
        out.say(net.stop_switch(faults.sw))


if __name__ == '__main__':
    sys.exit(lab.main('faults', run))
