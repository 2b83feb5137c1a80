"""What trimswitch's Mininet nodes are made of: the switch's options, command line, start, stop and ports added while
it runs (for `TrimSwitch` in trimswitch.py), the NDP host, a Linux router, the seed's leaf-spine topology and the CLI's
trimstats. trimswitch.py and lab.py both build on it; it imports neither.
"""

import inspect
import json
import os
import shlex
import signal
import subprocess
import sys
import time

from mininet.log import error, info
from mininet.node import Host, Node, Switch
from mininet.topo import Topo

# `mn --custom` runs trimswitch.py, which imports this file, without __file__; the code's own file name is there either way.
REPO = os.path.dirname(os.path.dirname(os.path.abspath(inspect.currentframe().f_code.co_filename)))

# What the switches' JVMs are given unless the switch says otherwise (docs/mininet.md, "Memory"): the quick compiler
# only, the serial collector and a heap that starts small, as a lab of many switches on a few cores wants (in Mininet
# the switches forwarded as fast with them as with the launcher's own options, in less memory), a young generation of
# 2 MiB, the compilers' freed native memory given back to the system, and the class archive mapped where it was made, so
# that its pages are the file's and shared by every switch rather than each switch's relocated copy.
DEFAULT_JAVA_OPTS = ('-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xms8m -Xmn2m -Xmx64m -XX:TrimNativeHeapInterval=2000 '
                     '-XX:-UsePerfData -XX:+UnlockDiagnosticVMOptions -XX:ArchiveRelocationMode=0')

MECHANISMS = ('ideal', 'mod', 'dod', 'tofino', 'tofino2')
IDLE_MODES = ('busy-spin', 'yield', 'backoff', 'sleep', 'poll')


def refuse(message):
    """What cannot work: under `mn`, one line and exit 2 (an exception there makes `mn` clean up every Mininet network on the
    machine, not only its own); in a Python program, a ValueError."""
    if os.path.basename(sys.argv[0] if sys.argv else '') == 'mn':
        sys.stderr.write(message + '\n')
        sys.exit(2)
    raise ValueError(message)


def tool_command():
    """The command that runs trimswitch: TRIMSWITCH if set (e.g. 'java -jar ...'), else the launcher of this checkout."""
    command = os.environ.get('TRIMSWITCH')
    if command:
        return shlex.split(command)
    launcher = os.path.join(REPO, 'cli', 'trimswitch')
    if not os.access(launcher, os.X_OK):
        refuse('trimswitch: no launcher at %s; build the tool (./mvnw -B -q package -DskipTests) or set TRIMSWITCH'
                % launcher)
    return [launcher]


def positive(name, value):
    """A number above 0 and finite, or a ValueError that names the parameter."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        refuse('trimswitch: %s must be a number, got %r' % (name, value))
    if not number > 0 or number == float('inf'):
        refuse('trimswitch: %s must be above 0 and finite, got %r' % (name, value))
    return number


def parse_rates(rates):
    """Per-port rates, keyed by Mininet's port number: a dict, or text such as '2:0.1 3:1' (port:Gb/s, spaces between)."""
    if rates is None or rates == '':
        return {}
    if isinstance(rates, dict):
        pairs = rates.items()
    else:
        pairs = []
        for item in str(rates).split():
            port, sep, rate = item.partition(':')
            if not sep:
                refuse('trimswitch: rates must be PORT:GBPS items, got %r' % item)
            pairs.append((port, rate))
    parsed = {}
    for port, rate in pairs:
        try:
            number = int(port)
        except (TypeError, ValueError):
            refuse('trimswitch: rates: port must be a whole number, got %r' % (port,))
        if number < 1:
            refuse('trimswitch: rates: Mininet numbers ports from 1, got %d' % number)
        parsed[number] = positive('rates[%d]' % number, rate)
    return parsed


# ---- what a TrimSwitch (mininet/trimswitch.py) does beyond Mininet's Switch: its command line, its start and stop,
# its ports added and removed while it runs

def check_switch_options(mechanism, config, rate, rates, idle):
    """Refuses a TrimSwitch's parameters that cannot work, before Mininet has made any link."""
    if mechanism is not None and mechanism not in MECHANISMS:
        refuse('trimswitch: mechanism must be one of %s, got %r' % (', '.join(MECHANISMS), mechanism))
    if idle not in IDLE_MODES:
        refuse('trimswitch: idle must be one of %s, got %r' % (', '.join(IDLE_MODES), idle))
    if config is not None and not os.path.isfile(str(config)):
        refuse('trimswitch: config %s is not a file' % config)
    if config is not None and (mechanism is not None or rate is not None or rates):
        refuse('trimswitch: give mechanism and rates in the config file %s, not beside it' % config)
    tool_command()  # no launcher: refused now too


def is_trimswitch(node):
    return isinstance(node, Switch) and hasattr(node, 'countersFile')


def trimswitch_port(mininet_port):
    """trimswitch numbers ports from 0, Mininet's switches from 1."""
    return mininet_port - Switch.portBase


def switch_problem(sw):
    """What keeps a switch's attached interfaces from making a switch, or None."""
    ports = sorted(sw.attached)
    if ports != list(range(Switch.portBase, Switch.portBase + len(ports))):
        return 'trimswitch %s: its ports must be Mininet ports %d..%d without a gap, got %s' % (
            sw.name, Switch.portBase, Switch.portBase + len(ports) - 1, ports)
    unknown = sorted(set(sw.rates) - set(ports))
    if unknown:
        return 'trimswitch %s: rates names port %s, which the switch has not (its ports: %s)' % (
            sw.name, ', '.join(map(str, unknown)), ports)
    return None


def _switch_settings(sw):
    """A settings file for what only the file can say (mechanism, per-port rates), or None."""
    if sw.mechanism is None and sw.rate is None and not sw.rates:
        return None
    lines = ['# written by mininet/trimswitch.py for switch %s' % sw.name]
    if sw.mechanism is not None:
        lines.append('mechanism: %s' % sw.mechanism)
    lines.append('ports:')
    for port in sorted(sw.attached):
        rate = sw.rates.get(port, sw.rate)
        lines.append('  - {interface: %s%s}' % (sw.attached[port], '' if rate is None else ', rateGbps: %r' % rate))
    return '\n'.join(lines) + '\n'


def switch_command(sw):
    """The `trimswitch run` command line of a switch: its attached interfaces as ports, or (udp) its config's sockets."""
    cmd = tool_command() + ['run', '--counters', sw.countersFile]
    if sw.udp:
        # The config's UDP ports (bind, remote): the Mininet links only carry them; idle mode and metrics are the file's.
        return cmd + ['--config', sw.configFile] + sw.extraArgs
    cmd += ['--metrics', sw.metrics, '--idle', sw.idle]
    if os.environ.get('TRIMSWITCH_PORT_KIND'):
        # How the interface ports read and send (af_packet, af_xdp): the same lab on either kind.
        cmd += ['--port-kind', os.environ['TRIMSWITCH_PORT_KIND']]
    settings = _switch_settings(sw)
    if settings is not None:
        with open(sw.generatedConfig, 'w') as out:
            out.write(settings)
        cmd += ['--config', sw.generatedConfig]
    elif sw.configFile is not None:
        cmd += ['--config', sw.configFile]
    for port in sorted(sw.attached):
        cmd += ['-i', '%d@%s' % (trimswitch_port(port), sw.attached[port])]
    return cmd + sw.extraArgs


def await_ports(sw):
    """Polls a starting switch's log until it has described every port. A switch that ends or times out is reported,
    not raised: an exception makes `mn` clean up every Mininet network on the machine, not only its own."""
    deadline = time.time() + sw.startTimeout
    while True:
        text = sw.log()
        if sw.process.poll() is not None:
            sw.failureReported = True
            error('*** trimswitch %s exited at start (%d):\n%s' % (sw.name, sw.process.returncode, text))
            return
        if text.count('trimswitch: port ') >= len(sw.attached) and 'trimswitch: running' in text:
            return
        if time.time() > deadline:
            error('*** trimswitch %s did not open its ports within %g s:\n%s' % (sw.name, sw.startTimeout, text))
            return
        time.sleep(0.1)


def end_switch(sw):
    """Stops a switch's process (SIGTERM, up to 10 s, then SIGKILL) and removes its files."""
    process, sw.process = sw.process, None
    sw.started = False
    sw.failureReported = False
    if process is not None and process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            error('*** trimswitch %s did not stop in 10 s: killed\n' % sw.name)
            process.kill()
            process.wait()
    for path in (sw.countersFile, sw.logFile, sw.generatedConfig):
        try:
            os.remove(path)
        except OSError:
            pass


def switch_ctl(sw, *args):
    """`trimswitch ctl ARGS` on a switch's control socket; a refusal is raised with the switch's one line."""
    if sw.process is None or sw.process.poll() is not None:
        raise RuntimeError('trimswitch %s is not running' % sw.name)
    out, err, code = sw.pexec(tool_command() + ['ctl', '--counters', sw.countersFile] + list(args))
    if code != 0:
        raise RuntimeError('trimswitch %s: %s' % (sw.name, (out + err).strip()))
    return out.strip()


def attach_port(sw, intf):
    """Makes a Mininet interface of a switch its port (TrimSwitch.attach)."""
    intf = sw.nameToIntf[intf] if isinstance(intf, str) else intf
    port = sw.ports[intf]
    if sw.process is None:
        sw.attached[port] = intf.name
        return None
    rate = sw.rates.get(port, sw.rate)
    sw.cmd('ip link set dev %s up' % intf.name)
    reply = switch_ctl(sw, 'add-port', '%d@%s' % (trimswitch_port(port), intf.name),
                       *([] if rate is None else ['--rate-gbps', repr(rate)]))
    sw.attached[port] = intf.name
    return reply


def detach_port(sw, intf):
    """Takes a port off a running switch (TrimSwitch.detach)."""
    intf = sw.nameToIntf[intf] if isinstance(intf, str) else intf
    port = sw.ports[intf]
    reply = switch_ctl(sw, 'del-port', str(trimswitch_port(port)))
    sw.attached.pop(port, None)
    return reply


def switch_stats(sw, *args):
    """`trimswitch stats` of a switch (e.g. '--json'), as text."""
    return subprocess.run(tool_command() + ['stats', '--counters', sw.countersFile] + list(args),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True).stdout

class NdpHost(Host):
    """A Mininet host that runs `trimswitch host`, the NDP end host (docs/hosts.md).

        receiver = b1.ndp_receive(rate=0.1, expectFlows=1)
        sender = a1.ndp_send(b1.IP(), size=1_000_000, spray=3)
        a1.ndp_report(sender); b1.ndp_report(receiver)   # wait for each, and read its per-flow JSON
    """

    def __init__(self, name, **params):
        Host.__init__(self, name, **params)
        self.ndpRuns = 0

    def _ndp(self, role, options, env):
        self.ndpRuns += 1
        base = '/tmp/trimswitch-ndp-%s-%d-%d-%s' % (self.name, os.getpid(), self.ndpRuns, role)
        run = {'json': base + '.json', 'log': base + '.log'}
        cmd = tool_command() + ['host'] + options + ['--json', run['json']]
        with open(run['log'], 'w') as log:
            run['process'] = self.popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                        env=env, cwd=REPO)
        return run

    def ndp_receive(self, port=666, rate=1, expectFlows=1, payloadBytes=None, args='', timeout=30):
        """Starts a receiver on this host's IP and returns once it listens."""
        options = ['--listen', '%s:%d' % (self.IP(), port), '--rate-gbps', str(rate), '--expect-flows',
                   str(expectFlows)]
        if payloadBytes is not None:
            options += ['--payload-bytes', str(payloadBytes)]
        run = self._ndp('receiver', options + shlex.split(args), dict(os.environ))
        deadline = time.time() + timeout
        while 'receiving on' not in self._read(run['log']):
            if run['process'].poll() is not None or time.time() > deadline:
                raise RuntimeError('ndp receiver on %s did not start:\n%s' % (self.name, self._read(run['log'])))
            time.sleep(0.1)
        return run

    def ndp_send(self, dst, port=666, size=1000000, flows=1, spray=1, rate=1, payloadBytes=None, args=''):
        """Starts a sender of `flows` flows of `size` bytes to dst (an address or a Mininet host) and returns at once."""
        address = dst.IP() if isinstance(dst, Node) else str(dst)
        options = ['--connect', '%s:%d' % (address, port), '--size', str(size), '--flows', str(flows), '--spray',
                   str(spray), '--rate-gbps', str(rate)]
        if payloadBytes is not None:
            options += ['--payload-bytes', str(payloadBytes)]
        return self._ndp('sender', options + shlex.split(args), dict(os.environ))

    def ndp_report(self, run, timeout=60):
        """Waits for a receiver or sender to end (stopping it after timeout s); returns its exit code ('exit'), what it
        printed ('output'), its --json report ('json') and that report's flows ('flows': bytes, fctUs, ... each)."""
        try:
            code = run['process'].wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            run['process'].terminate()
            code = run['process'].wait()
        report = {'exit': code, 'output': self._read(run['log']), 'json': None, 'flows': []}
        try:
            with open(run['json']) as results:
                report['json'] = json.load(results)
            report['flows'] = report['json']['flows']
        except (OSError, ValueError, KeyError, TypeError):
            pass
        for path in (run['json'], run['log']):
            try:
                os.remove(path)
            except OSError:
                pass
        return report

    @staticmethod
    def _read(path):
        try:
            with open(path) as text:
                return text.read()
        except OSError:
            return ''


class LinuxRouter(Node):
    """A leaf: a Linux router that hashes flows over equal-cost routes on the 5-tuple (ECMP), as the seed's leaves do."""

    def config(self, routes=(), **params):
        result = Node.config(self, **params)
        self.cmd('sysctl -qw net.ipv4.ip_forward=1')
        self.cmd('sysctl -qw net.ipv4.fib_multipath_hash_policy=1')
        for route in routes:
            self.cmd('ip route replace ' + route)
        return result

    def terminate(self):
        self.cmd('sysctl -qw net.ipv4.ip_forward=0')
        Node.terminate(self)


class LeafSpine(Topo):
    """The seed's live fabric: two racks of `hosts` hosts, each behind a Linux leaf, and `spines` trimswitch spines.

    Host aI is 10.1.I.2 behind leaf A (10.1.I.1), bI is 10.2.I.2 behind leaf B. Spine S links leaf A (10.100.S.1, the
    spine's port 0) to leaf B (10.100.S.2, its port 1), and each leaf spreads the other rack's prefix over the spines by
    ECMP. rate: Gb/s of each spine's port down to leaf B (default: unlimited). prefix: put before every node's name.
    """

    def build(self, hosts=3, spines=3, rate=None, prefix=''):
        try:
            hosts, spines = int(hosts), int(spines)
        except (TypeError, ValueError):
            refuse('leafspine: hosts and spines must be whole numbers, got %r and %r' % (hosts, spines))
        if not 1 <= hosts <= 250 or not 1 <= spines <= 250:
            refuse('leafspine: hosts and spines must be 1..250, got %r and %r' % (hosts, spines))
        spine_params = {} if rate is None else {'rates': {2: positive('rate', rate)}}
        leaves = {}
        for rack, net in (('a', 1), ('b', 2)):
            other = 3 - net
            leaf = self.addHost('%sleaf%s' % (prefix, rack.upper()), cls=LinuxRouter, ip='10.%d.1.1/24' % net,
                                routes=['10.%d.0.0/16 %s' % (other, ' '.join('nexthop via 10.100.%d.%d' % (s, other)
                                                                              for s in range(1, spines + 1)))])
            leaves[rack] = leaf
            for i in range(1, hosts + 1):
                host = self.addHost('%s%s%d' % (prefix, rack, i), ip='10.%d.%d.2/24' % (net, i),
                                    defaultRoute='via 10.%d.%d.1' % (net, i))
                self.addLink(host, leaf, params2={'ip': '10.%d.%d.1/24' % (net, i)})
        for s in range(1, spines + 1):
            spine = self.addSwitch('%ssp%d' % (prefix, s), dpid='%x' % (0x100 + s), **spine_params)
            self.addLink(leaves['a'], spine, params1={'ip': '10.100.%d.1/24' % s})
            self.addLink(leaves['b'], spine, params1={'ip': '10.100.%d.2/24' % s})


def trimstats(cli, line):
    """trimstats SWITCH [--json]: the trimswitch's counters (trimswitch stats)."""
    words = line.split()
    if not words:
        error('usage: trimstats SWITCH [--json]\n')
        return
    if words[0] not in cli.mn:
        names = sorted(node.name for node in cli.mn.switches if is_trimswitch(node))
        error('trimstats: no switch %s in this network; its trimswitches: %s\n' % (words[0], ', '.join(names) or 'none'))
        return
    node = cli.mn[words[0]]
    if not is_trimswitch(node):
        error('%s is not a trimswitch\n' % words[0])
        return
    info(node.stats(*words[1:]))


def read_text(path):
    try:
        with open(path) as text:
            return text.read()
    except (OSError, TypeError):
        return ''
