"""A lab of Linux hosts and live trimswitches on Mininet, for the end-to-end tests and the experiments alike.

    sys.path.insert(0, 'mininet')          # this folder
    import lab

    def main(out):
        with lab.Lab('tq') as net:                          # every node's name begins with the prefix
            h0, h1 = net.host('h0', '10.9.0.1/24'), net.host('h1', '10.9.0.2/24')
            s1 = net.switch('s1', idle='poll')              # a TrimSwitch (mininet/trimswitch.py), in a namespace
            net.link(h0, s1)                                # port 0 (tqs1-eth1)
            net.link(h1, s1, bw=100)                        # port 1, the host's side shaped by Mininet's TCLink
            net.start()                                     # returns once every switch forwards
            lab.ping_every_pair([h0, h1])
            out.say('every pair pings')
            ports = net.stats(s1)                           # `trimswitch stats --json`, by port number
    sys.exit(lab.main('e2e', main))                         # exit 0 passed, 1 failed, 3 host too slow

What it offers (the API stays; new things are added beside it):

  Lab(prefix, tool=None)                the lab: context manager (`with`), SIGTERM/SIGHUP/SIGINT stop it too, and
                                        stop() removes every node, link, process and file it made, whatever happened
    .host(name, ip=None, ipv6=False, cls=Host, **params)      a Mininet host (IPv6 off: no chatter crosses a switch)
    .switch(name, inNamespace=True, cls=TrimSwitch, **params) a TrimSwitch (its parameters: docs/mininet.md); in a
                                        namespace of its own by default, so its metrics, locks and sysctls are its own
    .udp_switch(name, config, **params) a trimswitch whose ports are UDP sockets from CONFIG (vxlan hosts, fabrics)
    .link(a, b, port1=None, port2=None, ip1=None, ip2=None, mtu=None, bw=None, delay=None, loss=None,
          max_queue_size=None, **params)                      a Mininet link (TCLink when shaped; delay and loss
                                        need the kernel's sch_netem); returns it
    .vxlan(host, ip, remote, local, port, vni=42)             a vxlan interface vx0 on a host, tx offload off
    .vxlan_star(count, settings, rates=None, switch='s1') -> (switch, hosts)   hosts h1..hN reaching a UDP-port
                                        switch by vxlan (10.9.0.i/24 on vx0; the switch's port i-1 is UDP 4789+i)
    .after_build(step)                  STEP() once nodes and links are made, before the switches start
    .start(), .stop()                   start every node and wait until every switch forwards (switches start side
                                        by side); stop and remove all
    .popen(node, args, log=None, env=None)                    a process in node's namespace, stopped at stop()
    .run(node, args, timeout=60, env=None) -> Result(code, out, err)   a command in node's namespace, waited for
    .stats(switch) -> {port: {...}}     `trimswitch stats --json` of a switch;  .stats_text(switch)
    .ctl(switch, *args) -> Result       `trimswitch ctl ...` on the switch's control socket
    .ctl_show(switch) -> dict           `trimswitch ctl show --json`
    .stop_switch(switch) -> last line   SIGTERM; Failed unless it exits 0/143 with 'stopped;' in its log
    .relaunch(switch)                   a switch that was killed started again on its interfaces and files
    .namespace_inode(node)              the node's network namespace's inode (/run/trimswitch/INODE/IFACE.lock)
    .tool(*args) -> [..]                the command line of `trimswitch ARGS`
    .scratch                            a scratch folder of the lab's own, removed at stop()
    .failed                             set when the lab stops on an exception: stop() prints the switches' logs
  poll(seconds, what, check)            checks every 0.1 s; after SECONDS raises HostTooSlow(what) (exit 3)
  expect(seconds, what, check)          the same, but a timeout is a failure (Failed, exit 1)
  tcp_listening(node, port), udp_bound(node, port), tcp_connected(node, port, count)   for poll()
  still_running(process, what)          for poll(): True while it runs; Failed, with its log, once it has exited
  ping(node, address, count=1, interval=0.2, wait=2, size=None, dont_fragment=False) -> received count
  ping_every_pair(hosts, count=2, addresses=None)           raises Failed naming the first pair that cannot
  vxlan_ports_yaml(count, rates=None)   the UDP ports of a vxlan star's switch, as YAML list items
  iperf3_server(net, node, port=5201), iperf3(net, node, server_ip, seconds, port=5201, args=()) -> iperf3's JSON
  tcp_burst(net, client, server, address, seconds=3, least=100000) -> iperf3's end report, Failed below LEAST bytes
  gen_receive(net, node, bind, expect, json_path, ...), gen_send(net, node, to, count, rate, flow, ...)
  ndp_host(net, node, args, json_path) -> popen of `trimswitch host`;  read_json(path), read_text(path)
  drained(net, switch, seconds=10) -> ports   the switch's counters once two readings 0.2 s apart agree
  switch_log_has(switch, text), await_line(switch, text, seconds)     the switch's own printed lines
  identity(ports) -> (line, difference)  received + extra flood copies = sent + dropped, kernel overflow apart
  check_incast(received, ports, packets, receiver_port, sender_ports) -> the line to print (or HostTooSlow/Failed)
  no_drops(ports, numbers, allow=('socketOverflow',)) -> lines about kernel drops; Failed when the switch dropped
  trials(count, body, what='trial') -> [body(i) for each i], a failure names the trial
  trimming_settings(fabric=None, idle=None, l2=False, metrics=None) -> YAML   the tests' two traffic classes
  env_whole(name, default)              a whole number from the environment, BadInput otherwise
  name_prefix(tag, argument=1)          the nodes' prefix: argv[ARGUMENT], else TAG + the process id's last digits
  main(tag, body) -> exit code          runs body(Output(tag)): 0 passed, 1 failed, 3 host too slow, 2 bad input
  Failed, HostTooSlow, BadInput          what a check raises

Needs root, Mininet 2.3 (Debian's `mininet`, run with /usr/bin/python3) and the tool (cli/trimswitch, or TRIMSWITCH).
"""

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mininet.link import Link, TCLink  # noqa: E402
from mininet.log import setLogLevel  # noqa: E402
from mininet.net import Mininet  # noqa: E402
from mininet.log import error  # noqa: E402
from mininet.node import Host  # noqa: E402

from nodes import REPO, read_text, tool_command  # noqa: E402,F401  read_text: the lab's users take it from here
from trimswitch import TrimSwitch  # noqa: E402

sys.path.insert(0, os.path.join(REPO, 'bench', 'soak'))
import identity as _identity  # noqa: E402


# What the kernel dropped before the switch could take it: socket buffers (UDP ports), AF_PACKET and AF_XDP rings
# (interfaces), an AF_XDP port's empty fill ring.
KERNEL_DROPS = ('socketOverflow', 'ringOverflow', 'fillRingEmpty')


class Failed(Exception):
    """A check that did not hold: the test fails (exit 1)."""


class HostTooSlow(Exception):
    """The host, not the switch, fell short (a wait ran out, senders did not fill a port): exit 3, skipped."""


class BadInput(Exception):
    """A parameter out of range: one line, exit 2."""


class _Stopped(BaseException):
    """A signal asked the lab to stop: raised where the program is, so that every finally runs."""


class Result(object):
    """A finished command: its exit code, its standard output and its standard error."""

    def __init__(self, code, out, err):
        self.code, self.out, self.err = code, out, err

    @property
    def text(self):
        return self.out + self.err

    def __repr__(self):
        return 'Result(%d, %r, %r)' % (self.code, self.out, self.err)


class Output(object):
    """Lines the program prints, each beginning with its tag ('e2e: every pair pings'), flushed at once."""

    def __init__(self, tag):
        self.tag = tag

    def say(self, text):
        sys.stdout.write('%s: %s\n' % (self.tag, text))
        sys.stdout.flush()


class Lab(object):
    """A Mininet network whose nodes' names all begin with PREFIX, removed whatever happens."""

    def __init__(self, prefix, tool=None):
        if not prefix or not prefix[0].isalpha() or not prefix.isalnum():
            raise BadInput('lab: the prefix must be letters and digits, beginning with a letter, got %r' % (prefix,))
        self.prefix = prefix
        if tool is not None:
            os.environ['TRIMSWITCH'] = tool
        tool_command()  # no launcher: refused before anything is made
        setLogLevel(os.environ.get('LAB_LOG', 'warning'))
        self.net = Mininet(topo=None, controller=None, build=False, autoSetMacs=False, waitConnected=False)
        self.processes = []
        self.scratch = tempfile.mkdtemp(prefix='trimswitch-lab-%s-' % prefix)
        self.failed = False
        self.started = False
        self.stopped = False
        self._signals = {}
        self._dpid = 0
        self._after_build = []
        self._starting = []

    # --- building ---

    def name(self, name):
        return self.prefix + name

    def __getitem__(self, name):
        return self.net[self.name(name)]

    def host(self, name, ip=None, ipv6=False, cls=Host, **params):
        """A host named PREFIX+name; ip as '10.9.0.1/24' (on its first link); no IPv6 unless asked."""
        node = self.net.addHost(self.name(name), cls=cls, ip=ip, **params)
        node.labIpv6 = ipv6
        return node

    def switch(self, name, inNamespace=True, cls=None, **params):
        """A TrimSwitch named PREFIX+name (its keyword arguments: docs/mininet.md), in a namespace of its own unless
        inNamespace=False (then in the root namespace, as Mininet's switches are)."""
        if cls is None:
            cls = TrimSwitch
        self._dpid += 1
        params.setdefault('dpid', '%x' % self._dpid)
        node = self.net.addSwitch(self.name(name), cls=cls, inNamespace=inNamespace, **params)
        node.labIpv6 = False
        return node

    def udp_switch(self, name, config, **params):
        """A trimswitch in a namespace of its own whose UDP ports are CONFIG's (a settings file)."""
        return self.switch(name, config=config, udp=True, **params)

    def link(self, a, b, port1=None, port2=None, ip1=None, ip2=None, mtu=None, bw=None, delay=None, loss=None,
             max_queue_size=None, **params):
        """A link from a to b (nodes or their short names). bw (Mb/s), delay ('1ms'), loss (%) and max_queue_size
        shape it with Mininet's TCLink (what a host sends; a switch sends past the qdisc, docs/mininet.md). mtu on both
        ends. ip1/ip2: addresses of the ends ('10.0.0.1/24'). Before or after start()."""
        a = self[a] if isinstance(a, str) else a
        b = self[b] if isinstance(b, str) else b
        shaping = {k: v for k, v in (('bw', bw), ('delay', delay), ('loss', loss),
                                     ('max_queue_size', max_queue_size)) if v is not None}
        cls = TCLink if shaping else Link
        if shaping:
            params.update(shaping)
        if ip1 is not None:
            params.setdefault('params1', {})['ip'] = ip1
        if ip2 is not None:
            params.setdefault('params2', {})['ip'] = ip2
        link = self.net.addLink(a, b, port1=port1, port2=port2, cls=cls, **params)
        if mtu is not None:
            for intf in (link.intf1, link.intf2):
                intf.node.cmd('ip link set dev %s mtu %d' % (intf.name, mtu))
        if self.started:
            for intf in (link.intf1, link.intf2):
                self._quiet(intf.node, intf.name)
                intf.node.cmd('ip link set dev %s up' % intf.name)
        return link

    def vxlan(self, host, ip, remote, local, port, vni=42, name='vx0'):
        """A vxlan interface on host to REMOTE:PORT (a UDP port of a switch), with address IP. A userspace switch relays
        frames with whatever checksums the sender left to offload: transmit offload off."""
        for command in ('ip link add %s type vxlan id %d remote %s local %s dstport %d nolearning'
                        % (name, vni, remote, local, port),
                        'ip addr add %s dev %s' % (ip, name), 'ip link set %s up' % name,
                        'ethtool -K %s tx off' % name):
            output = host.cmd(command + ' > /dev/null; echo $?').strip().splitlines()
            if not output or output[-1] != '0':
                raise Failed('%s: %s failed: %s' % (host.name, command, ' '.join(output)))

    def after_build(self, step):
        """STEP() runs once every node and link is made, before the switches start (a vxlan interface, a route)."""
        self._after_build.append(step)

    # --- running ---

    def __enter__(self):
        for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            self._signals[number] = signal.signal(number, self._on_signal)
        return self

    def __exit__(self, kind, value, trace):
        if kind is not None and not issubclass(kind, HostTooSlow):
            self.failed = True
        self.stop()
        for number, handler in self._signals.items():
            signal.signal(number, handler)
        return False

    @staticmethod
    def _on_signal(number, _frame):
        raise _Stopped('stopped by signal %d' % number)

    @staticmethod
    def _quiet(node, intf=None):
        """IPv6 off on a node (or one interface): no router or neighbour solicitation is a frame a test did not send."""
        if getattr(node, 'labIpv6', False):
            return
        if intf is None:
            node.cmd('sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1')
        if intf is not None or node.inNamespace:
            for name in ([intf] if intf is not None else node.intfNames()):
                if name != 'lo':
                    node.cmd('sysctl -qw net.ipv6.conf.%s.disable_ipv6=1' % name.replace('.', '/'))

    def start(self):
        """Makes every node and link, then starts the switches, side by side, and returns once each has opened its
        ports (HostTooSlow if one has not within its startTimeout; Failed if one exited)."""
        self.net.build()
        for node in self.net.hosts + self.net.switches:
            if node.inNamespace:
                node.cmd('ip link set lo up')
                self._quiet(node)
            else:
                for intf in node.intfNames():
                    if intf != 'lo':
                        self._quiet(node, intf)
        for step in self._after_build:
            step()
        self.started = True
        # Mininet starts its switches one after another; each of ours waits for its JVM, so they start together.
        problems = []

        def start(switch):
            try:
                switch.start([])
            except Exception as problem:  # reported below, with the switch's name
                problems.append('%s: %s' % (switch.name, problem))

        self._starting = [threading.Thread(target=start, args=(switch,)) for switch in self.net.switches]
        for thread in self._starting:
            thread.start()
        for thread in self._starting:
            thread.join()
        if problems:
            raise Failed('switches did not start: %s' % '; '.join(problems))
        for switch in self.net.switches:
            process = getattr(switch, 'process', None)
            if getattr(switch, 'failureReported', False) or process is None or process.poll() is not None:
                raise Failed('switch %s did not start:\n%s' % (switch.name, switch.log() if hasattr(switch, 'log') else ''))
            if 'trimswitch: running' not in switch.log():
                raise HostTooSlow('switch %s did not open its ports within %g s' % (switch.name, switch.startTimeout))

    def vxlan_star(self, count, settings, rates=None, switch='s1', **params):
        """COUNT hosts h1..hCOUNT around a trimswitch SWITCH whose ports are UDP sockets, each host reaching its port by
        vxlan. Host i is linked to the switch (172.31.i.2, the switch's end 172.31.i.1) and has a vxlan interface vx0
        (10.9.0.i/24, VNI 42) to the switch's UDP port 4789+i, which is switch port i-1 (inner MTU 1450 on the link's
        1500 bytes). SETTINGS: the settings file's text without its ports, which are added (rates: {port: Gb/s}).
        Returns (switch, hosts); the vxlan interfaces are made by start()."""
        config = os.path.join(self.scratch, '%s.yaml' % switch)
        with open(config, 'w') as out:
            out.write(settings.rstrip('\n') + '\nports:\n' + vxlan_ports_yaml(count, rates))
        node = self.udp_switch(switch, config, **params)
        hosts = []
        for i in range(1, count + 1):
            host = self.host('h%d' % i)
            self.link(host, node, ip1='172.31.%d.2/24' % i, ip2='172.31.%d.1/24' % i)
            hosts.append(host)
            self.after_build(lambda host=host, i=i: self.vxlan(host, '10.9.0.%d/24' % i, '172.31.%d.1' % i,
                                                                       '172.31.%d.2' % i, 4789 + i))
        return node, hosts

    def stop(self):
        """Stops every process the lab started, every switch, every node and link; removes the scratch folder. On a
        failure, prints each switch's log first. Safe to call twice."""
        if self.stopped:
            return
        self.stopped = True
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGHUP, signal.SIGINT})
        try:
            if self.failed:
                for switch in self.net.switches:
                    if hasattr(switch, 'log') and switch.log():
                        sys.stdout.write('--- %s log:\n%s' % (switch.name, switch.log()))
            for thread in self._starting:
                thread.join()  # a signal during start(): the switches still starting are stopped below, not left
            for process in self.processes:
                _end(process)
            try:
                self.net.stop()
            except Exception as problem:  # the links go whatever a node's stop said
                sys.stderr.write('lab: stopping Mininet: %s\n' % problem)
                for link in self.net.links:
                    try:
                        link.delete()
                    except Exception:
                        pass
            shutil.rmtree(self.scratch, ignore_errors=True)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)

    def tool(self, *args):
        return tool_command() + [str(arg) for arg in args]

    def popen(self, node, args, log=None, env=None):
        """Starts ARGS (a list, or text split as a shell would) in node's namespace; its output to LOG (a path), else
        discarded. Stopped (SIGTERM, then SIGKILL) at stop() if still running."""
        args = shlex.split(args) if isinstance(args, str) else [str(arg) for arg in args]
        out = open(log, 'w') if log else subprocess.DEVNULL
        try:
            process = node.popen(args, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                 env=env or dict(os.environ), cwd=REPO)
        finally:
            if log:
                out.close()
        process.labLog = log
        self.processes.append(process)
        return process

    def run(self, node, args, timeout=60, env=None):
        """Runs ARGS in node's namespace and waits (a command still running after TIMEOUT s is killed: Failed)."""
        args = shlex.split(args) if isinstance(args, str) else [str(arg) for arg in args]
        process = node.popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=env or dict(os.environ), cwd=REPO)
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            out, err = process.communicate()
            raise Failed('%s on %s did not end in %g s: %s%s' % (' '.join(args), node.name, timeout,
                                                                   out.decode(errors='replace'),
                                                                   err.decode(errors='replace')))
        return Result(process.returncode, out.decode(errors='replace'), err.decode(errors='replace'))

    # --- the switch's own views ---

    def stats_text(self, switch, *args):
        return self.run(switch, self.tool('stats', '--counters', switch.countersFile, *args)).text

    def stats(self, switch):
        """`trimswitch stats --json` of the switch, by port number."""
        result = self.run(switch, self.tool('stats', '--counters', switch.countersFile, '--json'))
        if result.code != 0:
            raise Failed('stats of %s exited %d: %s' % (switch.name, result.code, result.text))
        return {port['port']: port for port in json.loads(result.out)}

    def ctl(self, switch, *args):
        return self.run(switch, self.tool('ctl', '--counters', switch.countersFile, *args))

    def stop_switch(self, switch, seconds=30):
        """Stops a switch with SIGTERM and checks that it shut down cleanly: exit 0 (or 143 from a JVM that ran its
        shutdown to the end) and its last word ('stopped;') in its log. Returns that last line. The switch's node and
        links stay, its files go."""
        process = switch.process
        if process is None or process.poll() is not None:
            raise Failed('switch %s is not running' % switch.name)
        process.terminate()
        try:
            code = process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            raise Failed('switch %s did not stop within %g s of SIGTERM:\n%s' % (switch.name, seconds, switch.log()))
        text = switch.log()
        switch.stop(deleteIntfs=False)
        if code not in (0, 143):
            raise Failed('switch %s exited %d on SIGTERM:\n%s' % (switch.name, code, text))
        if 'stopped;' not in text:
            raise Failed('no clean stop in the log of switch %s:\n%s' % (switch.name, text))
        return text.rstrip('\n').splitlines()[-1]

    @staticmethod
    def relaunch(switch):
        """Starts a switch whose process died (SIGKILL) again, on the same interfaces and files, leaving what the dead
        one left (counters, control socket, locks) for the new one to take over; waits until it runs."""
        if switch.process is not None and switch.process.poll() is None:
            raise Failed('switch %s still runs' % switch.name)
        switch.process, switch.started, switch.failureReported = None, False, False
        switch.start([])
        if switch.failureReported or 'trimswitch: running' not in switch.log():
            raise Failed('switch %s did not start again:\n%s' % (switch.name, switch.log()))

    @staticmethod
    def namespace_inode(node):
        """The inode number of node's network namespace, which names the folder of its interfaces' lock files."""
        return ''.join(c for c in node.cmd('readlink /proc/self/ns/net') if c.isdigit())

    def ctl_show(self, switch):
        result = self.ctl(switch, 'show', '--json')
        if result.code != 0:
            raise Failed('ctl show of %s exited %d: %s' % (switch.name, result.code, result.text))
        return json.loads(result.out)


def _end(process, seconds=5):
    """Stops a process: SIGTERM, then SIGKILL after SECONDS."""
    if process.poll() is not None:
        return process.returncode
    process.terminate()
    try:
        return process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        return process.wait()


# --- waiting ---

def poll(seconds, what, check):
    """Runs CHECK every tenth of a second until it returns true; after SECONDS the host was too slow for WHAT."""
    deadline = time.time() + seconds
    while True:
        if check():
            return
        if time.time() > deadline:
            raise HostTooSlow('%s within %g s' % (what, seconds))
        time.sleep(0.1)


def expect(seconds, what, check):
    """As poll(), but a condition that does not come is a failure."""
    try:
        poll(seconds, what, check)
    except HostTooSlow:
        raise Failed('not %s within %g s' % (what, seconds))


def _ss(node, args):
    return node.cmd('ss -H %s' % args).strip()


def tcp_listening(node, port):
    return bool(_ss(node, '-ltn "sport = :%d"' % port))


def udp_bound(node, port):
    return bool(_ss(node, '-lun "sport = :%d"' % port))


def tcp_connected(node, port, count):
    return len(_ss(node, '-tn state established "dport = :%d"' % port).splitlines()) >= count


def still_running(process, what):
    """True while PROCESS runs; when it has exited, Failed with its log: a failure, not slowness."""
    if process.poll() is None:
        return True
    raise Failed('%s exited %d:\n%s' % (what, process.returncode, read_text(getattr(process, 'labLog', None))))


def read_json(path):
    with open(path) as text:
        return json.load(text)


def switch_log_has(switch, text):
    return text in switch.log()


def await_line(switch, text, seconds=5):
    """The switch prints TEXT within SECONDS, else Failed with its log."""
    try:
        poll(seconds, 'line', lambda: text in switch.log())
    except HostTooSlow:
        raise Failed("no line '%s' from the switch within %g s:\n%s" % (text, seconds, switch.log()))


# --- hosts' tools ---

def ping(node, address, count=1, interval=0.2, wait=2, size=None, dont_fragment=False):
    """Pings ADDRESS from node; returns how many replies came."""
    options = '-q -n -c %d -i %g -W %g' % (count, interval, wait)
    if size is not None:
        options += ' -s %d' % size
    if dont_fragment:
        options += ' -M do'
    output = node.cmd('ping %s %s' % (options, address))
    for line in output.splitlines():
        if 'packets transmitted' in line:
            return int(line.split(',')[1].split()[0])
    return 0


def ping_every_pair(hosts, count=2, addresses=None):
    """Every host pings every other's address (its first one, or addresses[i] for hosts[i]) COUNT times; Failed at the
    first pair that cannot."""
    addresses = addresses or [host.IP() for host in hosts]
    for source in hosts:
        for target, address in zip(hosts, addresses):
            if source is not target and ping(source, address, count=count) < count:
                raise Failed('%s cannot ping %s' % (source.name, address))


def vxlan_ports_yaml(count, rates=None):
    """The ports of a switch whose port i-1 binds UDP 4789+i and sends to 172.31.i.2 there (Lab.vxlan_star), as YAML
    list items; rates: {port: Gb/s}."""
    lines = []
    for i in range(1, count + 1):
        lines.append('  - bind: 0.0.0.0:%d\n    remote: 172.31.%d.2:%d\n' % (4789 + i, i, 4789 + i))
        if rates and i - 1 in rates:
            lines.append('    rateGbps: %s\n' % rates[i - 1])
    return ''.join(lines)


def iperf3_server(net, node, port=5201):
    """An iperf3 server on node, stopped with the lab; returns once it listens."""
    process = net.popen(node, ['iperf3', '-s', '-p', port], log=os.path.join(net.scratch, 'iperf3-%s-%d.log'
                                                                               % (node.name, port)))
    poll(10, "iperf3's server to listen on %s" % node.name,
         lambda: still_running(process, 'iperf3 server') and tcp_listening(node, port))
    return process


def iperf3(net, node, server_ip, seconds, port=5201, args=()):
    """An iperf3 client run to its end: its JSON report (Failed when it exits non-zero)."""
    result = net.run(node, ['iperf3', '-c', server_ip, '-p', port, '-t', seconds, '-J'] + list(args),
                     timeout=seconds + 30)
    if result.code != 0:
        raise Failed('iperf3 from %s to %s exited %d: %s' % (node.name, server_ip, result.code, result.text))
    return json.loads(result.out)


def tcp_burst(net, client, server, address, seconds=3, least=100000):
    """An iperf3 server on SERVER and a client on CLIENT to ADDRESS for SECONDS: iperf3's 'end' report, Failed unless
    more than LEAST bytes arrived."""
    iperf3_server(net, server)
    end = iperf3(net, client, address, seconds)['end']
    moved = int(end['sum_received']['bytes'])
    if moved <= least:
        raise Failed('iperf3 moved only %d bytes' % moved)
    return end


def gen_receive(net, node, bind, expect_packets, json_path, idle_s=5, timeout_s=60, args=()):
    """`trimswitch gen receive` on node, returning once it has bound its UDP port."""
    log = json_path + '.log'
    process = net.popen(node, net.tool('gen', 'receive', '--bind', bind, '--expect', expect_packets, '--idle-s', idle_s,
                                       '--timeout-s', timeout_s, '--json', json_path, *args), log=log)
    port = int(bind.rsplit(':', 1)[1])
    poll(30, 'the receiver to bind %s' % bind, lambda: still_running(process, 'the receiver') and udp_bound(node, port))
    return process


def gen_send(net, node, to, count, rate, flow=None, args=(), log=None):
    """`trimswitch gen send` on node, started (wait for it with the process's wait())."""
    options = ['gen', 'send', '--to', to, '--count', count, '--rate', rate]
    if flow is not None:
        options += ['--flow', flow]
    return net.popen(node, net.tool(*(options + list(args))), log=log)


def ndp_host(net, node, args, json_path, log=None):
    """`trimswitch host ARGS --json JSON_PATH` on node, started."""
    return net.popen(node, net.tool('host', *(list(args) + ['--json', json_path])), log=log or json_path + '.log')


# --- counters ---

def identity(ports):
    """The counters' identity over every port (`stats --json`, as a list or by port): frames received + the copies
    flooding made = frames sent + dropped by reason, the kernel's overflow counted apart (bench/soak/identity.py).
    Returns (line, difference)."""
    return _identity.identity(list(ports.values()) if isinstance(ports, dict) else list(ports))


def drained(net, switch, seconds=10):
    """Waits until two readings of the switch's identity 0.2 s apart agree (nothing left inside); returns the ports."""
    before = None
    deadline = time.time() + seconds
    while True:
        ports = net.stats(switch)
        now = identity(ports)[0]
        if now == before or time.time() > deadline:
            return ports
        before = now
        time.sleep(0.2)


def check_incast(received, ports, packets, receiver_port, sender_ports):
    """An incast of `gen send` senders into one `gen receive` through a switch, from the receiver's --json and the
    switch's ports: every datagram arrived whole or as a trimmed header; the switch trimmed for the receiver's port and
    sent as many headers as the receiver saw; no port dropped but where the kernel's buffer in front of the switch
    overflowed. HostTooSlow when such kernel drops account for what is missing, or nothing was trimmed at all."""
    senders = len(sender_ports)
    flows = received['flows']
    if len(flows) != senders:
        raise Failed('expected %d flows at the receiver, got %d: %s' % (senders, len(flows), flows))
    missing = sum(packets - flow['whole'] - flow['trimmed'] for flow in flows.values())
    overflowed = sum(ports[p].get('drops', {}).get(kind, 0) for p in sender_ports for kind in KERNEL_DROPS)
    if missing > 0 and overflowed >= missing:
        raise HostTooSlow('the kernel dropped %d of the senders\' frames in front of the switch before it could take '
                          'them; %d missing' % (overflowed, missing))
    for sender, flow in flows.items():
        if flow['whole'] + flow['trimmed'] != packets or flow['gaps'] != 0:
            raise Failed('%s: %d whole + %d trimmed of %d, %d missing' % (sender, flow['whole'], flow['trimmed'],
                                                                         packets, flow['gaps']))
    trimmed = received['trimmed']
    if trimmed == 0:
        raise HostTooSlow('%d senders did not even fill port %d' % (senders, receiver_port))
    for number, port in ports.items():
        drops = {r: c for r, c in port.get('drops', {}).items() if r not in KERNEL_DROPS}
        if drops:
            raise Failed('port %d dropped %s' % (number, drops))
    out = ports[receiver_port]
    if out['trimPackets'] <= 0:
        raise Failed('the switch trimmed nothing for port %d: %s' % (receiver_port, out))
    if out['txTrimPackets'] != trimmed:
        raise Failed('the switch sent %d trimmed packets out of port %d, the receiver saw %d'
                     % (out['txTrimPackets'], receiver_port, trimmed))
    if out['droppedTrimPackets'] != 0:
        raise Failed('trimmed packets dropped: %s' % out)
    return ('incast: %d whole + %d trimmed of %d, none lost; the switch counted %d trimmed out of port %d: %d at the '
            'ingress meters, %d deflected on drop' % (received['whole'], trimmed, senders * packets,
                                                      out['txTrimPackets'], receiver_port, out['ingressTrimPackets'],
                                                      out['dodTrimPackets']))


def no_drops(ports, numbers, allow=('socketOverflow',)):
    """Failed when one of the ports NUMBERS dropped for a reason not in ALLOW (the kernel's, which a host too slow to
    run the switch causes); returns a line for each port where the kernel did drop."""
    lines = []
    for number in numbers:
        drops = dict(ports[number].get('drops', {}))
        for reason in allow:
            count = drops.pop(reason, 0)
            if count:
                lines.append('port %d: the kernel dropped %d datagrams at the switch (%s; host too slow to keep up)'
                             % (number, count, reason))
        if drops:
            raise Failed('port %d dropped %s' % (number, drops))
    return lines


def trimming_settings(fabric=None, idle=None, l2=False, metrics=None):
    """The head of a settings file (YAML, without ports) for the tests' switches: the tofino mechanism and two traffic
    classes on every port, everything (TCP) in a 1024-packet queue that drops and DSCP 10 in the reproduced switch's
    16-packet queue that trims. fabric: its keys ({'pipelines': 2, 'headerQueuePackets': 16384}); idle: realtime.idle;
    l2: learning-bridge forwarding; metrics: the Prometheus endpoint's address."""
    lines = ['mechanism: tofino']
    if fabric:
        lines.append('fabric:')
        lines += ['  %s: %s' % (key, value) for key, value in fabric.items()]
    lines += ['qos:', '  queues:', '    - {packets: 1024, discard: drop}', '    - {packets: 16, discard: trim}',
              '  dscpToTc: {10: 1}']
    if idle:
        lines += ['realtime:', '  idle: %s' % idle]
    if l2:
        lines += ['forwarding:', '  mode: l2']
    if metrics:
        lines += ['metrics:', '  address: %s' % metrics]
    return '\n'.join(lines) + '\n'


def env_whole(name, default):
    """A whole number from the environment (NAME), else DEFAULT; BadInput unless it is 1 or more."""
    text = os.environ.get(name, str(default))
    if not text.isdigit() or int(text) < 1:
        raise BadInput('%s must be a whole number above 0, got %r' % (name, text))
    return int(text)


def trials(count, body, what='trial'):
    """BODY(i) for i in 0..COUNT-1, its results in a list; an exception names the trial it came from."""
    results = []
    for index in range(count):
        try:
            results.append(body(index))
        except Failed as problem:
            raise Failed('%s %d: %s' % (what, index, problem))
        except HostTooSlow as problem:
            raise HostTooSlow('%s %d: %s' % (what, index, problem))
    return results


def name_prefix(tag, argument=1, digits=4):
    """The prefix of a program's nodes: its command line's argument ARGUMENT if given, else TAG and the last DIGITS
    digits of its process id, so that two runs at once do not meet (Mininet's interface names live in the root
    namespace, 15 characters at most)."""
    if len(sys.argv) > argument:
        return sys.argv[argument]
    return '%s%d' % (tag, os.getpid() % 10 ** digits)


def main(tag, body):
    """Runs BODY(Output(tag)) and returns the program's exit code: 0 passed ('TAG: passed'), 1 failed, 3 host too
    slow (the Java tests report it as skipped), 2 bad input; one line each."""
    out = Output(tag)
    try:
        body(out)
    except HostTooSlow as problem:
        out.say('host too slow: %s' % problem)
        return 3
    except BadInput as problem:
        sys.stderr.write('%s\n' % problem)
        return 2
    except Failed as problem:
        out.say('FAILED: %s' % problem)
        return 1
    except _Stopped as problem:
        out.say(str(problem))
        return 143
    out.say('passed')
    return 0
