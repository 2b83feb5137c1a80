"""trimswitch in Mininet: a switch class, an NDP host class and the seed's leaf-spine as a topology.

    sudo mn --custom mininet/trimswitch.py --switch trimswitch --controller none --topo linear,3 --test pingall
    sudo mn --custom mininet/trimswitch.py --switch trimswitch,mechanism=dod,idle=poll --controller none \
        --topo leafspine,rate=0.1 --host ndp

Each Mininet switch is one `trimswitch run` process in the root namespace, as Mininet's Open vSwitch and Linux
bridges are: its ports are the switch's Mininet interfaces, port N-1 on Mininet's port N (the interface sX-ethN), as
trimswitch numbers its ports from 0. The switch is started with every link the topology gave it; a link added after
start is not attached to the running process (docs/mininet.md). Each switch has a counters file of its own, since the
default one is per network namespace and every switch here shares the root namespace: `trimstats s1` in Mininet's CLI
prints it. The tool is `cli/trimswitch` of the checkout that holds this file, or the command in TRIMSWITCH.
"""

import inspect
import json
import os
import shlex
import signal
import subprocess
import sys
import time

from mininet.cli import CLI
from mininet.log import error, info
from mininet.node import Host, Node, Switch
from mininet.topo import Topo

# `mn --custom` runs this file without __file__; the code's own file name is there either way.
_HERE = os.path.dirname(os.path.abspath(inspect.currentframe().f_code.co_filename))
REPO = os.path.dirname(_HERE)

# What the switches' JVMs are given unless the switch says otherwise (docs/mininet.md, "Memory"): the quick compiler
# only, the serial collector and a heap that starts small, as a lab of many switches on a few cores wants (in Mininet
# the switches forwarded as fast with them as with the launcher's own options, in less memory), a young generation of
# 2 MiB, the compilers' freed native memory given back to the system, and the class archive mapped where it was made, so
# that its pages are the file's and shared by every switch rather than each switch's relocated copy.
DEFAULT_JAVA_OPTS = ('-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xms8m -Xmn2m -Xmx64m -XX:TrimNativeHeapInterval=2000 '
                     '-XX:-UsePerfData -XX:+UnlockDiagnosticVMOptions -XX:ArchiveRelocationMode=0')

MECHANISMS = ('ideal', 'mod', 'dod', 'tofino', 'tofino2')
IDLE_MODES = ('busy-spin', 'yield', 'backoff', 'sleep', 'poll')


def _refuse(message):
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
        _refuse('trimswitch: no launcher at %s; build the tool (./mvnw -B -q package -DskipTests) or set TRIMSWITCH'
                % launcher)
    return [launcher]


def _positive(name, value):
    """A number above 0 and finite, or a ValueError that names the parameter."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        _refuse('trimswitch: %s must be a number, got %r' % (name, value))
    if not number > 0 or number == float('inf'):
        _refuse('trimswitch: %s must be above 0 and finite, got %r' % (name, value))
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
                _refuse('trimswitch: rates must be PORT:GBPS items, got %r' % item)
            pairs.append((port, rate))
    parsed = {}
    for port, rate in pairs:
        try:
            number = int(port)
        except (TypeError, ValueError):
            _refuse('trimswitch: rates: port must be a whole number, got %r' % (port,))
        if number < 1:
            _refuse('trimswitch: rates: Mininet numbers ports from 1, got %d' % number)
        parsed[number] = _positive('rates[%d]' % number, rate)
    return parsed


class TrimSwitch(Switch):
    """A Mininet switch that is a `trimswitch run` process over the switch's interfaces.

    mechanism: the trimming mechanism (ideal, mod, dod, tofino, tofino2); default: the config's, else tofino.
    config: a trimswitch settings file (YAML); its ports[] keep their settings, the interfaces are Mininet's.
    rate: Gb/s of every port; rates: per port, keyed by Mininet's port number ({2: 0.1} or '2:0.1 3:1').
    idle: what a pipeline thread does with nothing to forward (default poll: many switches share the cores).
    metrics: host:port of the Prometheus endpoint, or off (default: off, since every switch shares the root namespace).
    args: more options for `trimswitch run`; javaOpts: the JVM's options (TRIMSWITCH_JAVA_OPTS).
    startTimeout: seconds to wait for the switch to open its ports.
    """

    def __init__(self, name, mechanism=None, config=None, rate=None, rates=None, idle='poll', metrics='off',
                 args='', javaOpts=DEFAULT_JAVA_OPTS, startTimeout=60, **params):
        if mechanism is not None and mechanism not in MECHANISMS:
            _refuse('trimswitch: mechanism must be one of %s, got %r' % (', '.join(MECHANISMS), mechanism))
        if idle not in IDLE_MODES:
            _refuse('trimswitch: idle must be one of %s, got %r' % (', '.join(IDLE_MODES), idle))
        if config is not None and not os.path.isfile(str(config)):
            _refuse('trimswitch: config %s is not a file' % config)
        if config is not None and (mechanism is not None or rate is not None or rates):
            _refuse('trimswitch: give mechanism and rates in the config file %s, not beside it' % config)
        self.mechanism = mechanism
        self.configFile = None if config is None else os.path.abspath(str(config))
        self.rate = None if rate is None else _positive('rate', rate)
        self.rates = parse_rates(rates)
        self.idle = idle
        self.metrics = str(metrics)
        self.extraArgs = shlex.split(str(args)) if args else []
        self.javaOpts = javaOpts
        self.startTimeout = _positive('startTimeout', startTimeout)
        tool_command()  # no launcher: refused now, before Mininet has made any link
        self.process = None
        self.started = False
        self.failureReported = False
        self.attached = {}
        files = '/dev/shm/trimswitch-mininet-%s' % name
        # The switch's own files live where only root can write (it refuses /dev/shm, which anyone can).
        self.countersFile = '/run/trimswitch/trimswitch-mininet-%s.counters' % name
        self.logFile = files + '.log'
        self.generatedConfig = files + '.yaml'
        Switch.__init__(self, name, **params)

    def ports_to_attach(self):
        """The switch's Mininet interfaces (not the root namespace's loopback) by Mininet's port number."""
        return {port: intf for port, intf in sorted(self.intfs.items()) if intf.name != 'lo'}

    @staticmethod
    def trimswitch_port(mininet_port):
        """trimswitch numbers ports from 0, Mininet's switches from 1."""
        return mininet_port - Switch.portBase

    def attach(self, intf):
        """Makes a Mininet interface of the switch (a link's end, by name or Intf) its port: Mininet's port number less
        one. Before start() it joins the command line. Once the switch runs, `trimswitch ctl add-port N@IFACE` gives it
        to the running switch, which takes a port it has removed or the next new number (after net.addLink, whose
        ports Mininet numbers on): `net.addLink(h4, s1); s1.attach('s1-eth4')`. Returns the switch's reply, if any."""
        intf = self.nameToIntf[intf] if isinstance(intf, str) else intf
        port = self.ports[intf]
        if self.process is None:
            self.attached[port] = intf.name
            return None
        rate = self.rates.get(port, self.rate)
        self.cmd('ip link set dev %s up' % intf.name)
        reply = self._ctl('add-port', '%d@%s' % (self.trimswitch_port(port), intf.name),
                          *([] if rate is None else ['--rate-gbps', repr(rate)]))
        self.attached[port] = intf.name
        return reply

    def detach(self, intf):
        """Takes a port off the running switch (`trimswitch ctl del-port N`): its queued packets are counted as dropped,
        its counters stay. Returns the switch's reply."""
        intf = self.nameToIntf[intf] if isinstance(intf, str) else intf
        port = self.ports[intf]
        reply = self._ctl('del-port', str(self.trimswitch_port(port)))
        self.attached.pop(port, None)
        return reply

    def _ctl(self, *args):
        """`trimswitch ctl ARGS` on this switch's control socket; a refusal is raised with the switch's one line."""
        if self.process is None or self.process.poll() is not None:
            raise RuntimeError('trimswitch %s is not running' % self.name)
        out, err, code = self.pexec(tool_command() + ['ctl', '--counters', self.countersFile] + list(args))
        if code != 0:
            raise RuntimeError('trimswitch %s: %s' % (self.name, (out + err).strip()))
        return out.strip()

    def _settings(self):
        """A settings file for what only the file can say (mechanism, per-port rates), or None."""
        if self.mechanism is None and self.rate is None and not self.rates:
            return None
        ports = sorted(self.attached)
        lines = ['# written by mininet/trimswitch.py for switch %s' % self.name]
        if self.mechanism is not None:
            lines.append('mechanism: %s' % self.mechanism)
        lines.append('ports:')
        for port in ports:
            rate = self.rates.get(port, self.rate)
            lines.append('  - {interface: %s%s}' % (self.attached[port], '' if rate is None else ', rateGbps: %r' % rate))
        return '\n'.join(lines) + '\n'

    def problem(self):
        """What keeps the attached interfaces from making a switch, or None."""
        ports = sorted(self.attached)
        if ports != list(range(Switch.portBase, Switch.portBase + len(ports))):
            return 'trimswitch %s: its ports must be Mininet ports %d..%d without a gap, got %s' % (
                self.name, Switch.portBase, Switch.portBase + len(ports) - 1, ports)
        unknown = sorted(set(self.rates) - set(ports))
        if unknown:
            return 'trimswitch %s: rates names port %s, which the switch has not (its ports: %s)' % (
                self.name, ', '.join(map(str, unknown)), ports)
        return None

    def command(self):
        """The `trimswitch run` command line for the attached interfaces."""
        ports = sorted(self.attached)
        cmd = tool_command() + ['run', '--counters', self.countersFile, '--metrics', self.metrics, '--idle', self.idle]
        settings = self._settings()
        if settings is not None:
            with open(self.generatedConfig, 'w') as out:
                out.write(settings)
            cmd += ['--config', self.generatedConfig]
        elif self.configFile is not None:
            cmd += ['--config', self.configFile]
        for port in ports:
            cmd += ['-i', '%d@%s' % (self.trimswitch_port(port), self.attached[port])]
        return cmd + self.extraArgs

    def start(self, _controllers):
        """Starts `trimswitch run` on the switch's interfaces and waits until it has opened every port."""
        if self.process is not None:
            return
        self.attached = {}
        for port, intf in self.ports_to_attach().items():
            self.attached[port] = str(intf)
        if not self.attached:
            info('*** trimswitch %s has no links: not started\n' % self.name)
            self.started = True
            return
        problem = self.problem()
        if problem is not None:
            # Reported, not raised: Mininet has made its links by now, and only its own stop() removes them.
            error('*** %s: not started\n' % problem)
            self.failureReported = True
            self.started = True
            return
        for intf in self.attached.values():
            self.cmd('ip link set dev %s up' % intf)
        cmd = self.command()
        env = dict(os.environ)
        if self.javaOpts:
            env['TRIMSWITCH_JAVA_OPTS'] = self.javaOpts
        with open(self.logFile, 'w') as log:
            self.process = self.popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env,
                                      cwd=REPO)
        self._await_ports()
        self.started = True

    def _await_ports(self):
        """Polls the log until the switch has described every port. A switch that ends or times out is reported, not
        raised: an exception makes `mn` clean up every Mininet network on the machine, not only its own."""
        deadline = time.time() + self.startTimeout
        while True:
            text = self.log()
            if self.process.poll() is not None:
                self.failureReported = True
                error('*** trimswitch %s exited at start (%d):\n%s' % (self.name, self.process.returncode, text))
                return
            if text.count('trimswitch: port ') >= len(self.attached) and 'trimswitch: running' in text:
                return
            if time.time() > deadline:
                error('*** trimswitch %s did not open its ports within %g s:\n%s' % (self.name, self.startTimeout, text))
                return
            time.sleep(0.1)

    def log(self):
        """What the switch has printed so far."""
        try:
            with open(self.logFile) as log:
                return log.read()
        except OSError:
            return ''

    def connected(self):
        """Whether start() is over. A switch that failed was reported then (or is now, once) and counts as connected
        too, so that Mininet's wait for switches ends and its tests show the loss, rather than wait for ever."""
        if self.process is not None and self.process.poll() is not None and not self.failureReported:
            self.failureReported = True
            error('*** trimswitch %s has stopped (%d):\n%s' % (self.name, self.process.returncode, self.log()))
        return self.started

    def pid_of_switch(self):
        """The `trimswitch run` process's id, or None."""
        return None if self.process is None else self.process.pid

    def stats(self, *args):
        """`trimswitch stats` of this switch (e.g. stats('--json')), as text."""
        return subprocess.run(tool_command() + ['stats', '--counters', self.countersFile] + list(args),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True).stdout

    def stop(self, deleteIntfs=True):
        """Stops the switch (SIGTERM, up to 10 s, then SIGKILL) and removes its files."""
        process, self.process = self.process, None
        self.started = False
        self.failureReported = False
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                error('*** trimswitch %s did not stop in 10 s: killed\n' % self.name)
                process.kill()
                process.wait()
        for path in (self.countersFile, self.logFile, self.generatedConfig):
            try:
                os.remove(path)
            except OSError:
                pass
        Switch.stop(self, deleteIntfs)


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
            _refuse('leafspine: hosts and spines must be whole numbers, got %r and %r' % (hosts, spines))
        if not 1 <= hosts <= 250 or not 1 <= spines <= 250:
            _refuse('leafspine: hosts and spines must be 1..250, got %r and %r' % (hosts, spines))
        spine_params = {} if rate is None else {'rates': {2: _positive('rate', rate)}}
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


def _trimstats(cli, line):
    """trimstats SWITCH [--json]: the trimswitch's counters (trimswitch stats)."""
    words = line.split()
    if not words:
        error('usage: trimstats SWITCH [--json]\n')
        return
    if words[0] not in cli.mn:
        names = sorted(node.name for node in cli.mn.switches if isinstance(node, TrimSwitch))
        error('trimstats: no switch %s in this network; its trimswitches: %s\n' % (words[0], ', '.join(names) or 'none'))
        return
    node = cli.mn[words[0]]
    if not isinstance(node, TrimSwitch):
        error('%s is not a trimswitch\n' % words[0])
        return
    info(node.stats(*words[1:]))


CLI.do_trimstats = _trimstats

switches = {'trimswitch': TrimSwitch}
hosts = {'ndp': NdpHost}
topos = {'leafspine': LeafSpine}
