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

import os
import shlex
import subprocess
import sys

# `mn --custom` runs this file without __file__; the code's own file name is there either way.
sys.path.insert(0, os.path.dirname(os.path.abspath(sys._getframe().f_code.co_filename)))

from mininet.log import error, info  # noqa: E402
from mininet.cli import CLI  # noqa: E402
from mininet.node import Switch  # noqa: E402

import nodes  # noqa: E402
from nodes import DEFAULT_JAVA_OPTS, REPO, LeafSpine, LinuxRouter, NdpHost, parse_rates, tool_command  # noqa: E402,F401


class TrimSwitch(Switch):
    """A Mininet switch that is a `trimswitch run` process over the switch's interfaces.

    mechanism: the trimming mechanism (ideal, mod, dod, tofino, tofino2); default: the config's, else tofino.
    config: a trimswitch settings file (YAML); its ports[] keep their settings, the interfaces are Mininet's.
    rate: Gb/s of every port; rates: per port, keyed by Mininet's port number ({2: 0.1} or '2:0.1 3:1').
    idle: what a pipeline thread does with nothing to forward (default poll: many switches share the cores).
    metrics: host:port of the Prometheus endpoint, or off (default: off, since every switch shares the root namespace).
    args: more options for `trimswitch run`; javaOpts: the JVM's options (TRIMSWITCH_JAVA_OPTS).
    startTimeout: seconds to wait for the switch to open its ports.
    udp: its ports are the config's UDP sockets (bind, remote), which the Mininet links only carry.
    Its command line, start, stop and ports added while it runs: nodes.py.
    """

    def __init__(self, name, mechanism=None, config=None, rate=None, rates=None, idle='poll', metrics='off',
                 args='', javaOpts=DEFAULT_JAVA_OPTS, startTimeout=60, udp=False, **params):
        nodes.check_switch_options(mechanism, config, rate, rates, idle)
        self.mechanism = mechanism
        self.configFile = None if config is None else os.path.abspath(str(config))
        self.rate = None if rate is None else nodes.positive('rate', rate)
        self.rates = parse_rates(rates)
        self.idle, self.metrics, self.udp = idle, str(metrics), udp
        self.extraArgs = shlex.split(str(args)) if args else []
        self.javaOpts = javaOpts
        self.startTimeout = nodes.positive('startTimeout', startTimeout)
        self.process, self.started, self.failureReported, self.attached = None, False, False, {}
        files = '/dev/shm/trimswitch-mininet-%s' % name
        # The switch's own files live where only root can write (it refuses /dev/shm, which anyone can).
        self.countersFile = '/run/trimswitch/trimswitch-mininet-%s.counters' % name
        self.logFile, self.generatedConfig = files + '.log', files + '.yaml'
        Switch.__init__(self, name, **params)

    def start(self, _controllers):
        """Starts `trimswitch run` on the switch's interfaces and waits until it has opened every port."""
        if self.process is not None:
            return
        self.attached = {port: intf.name for port, intf in sorted(self.intfs.items()) if intf.name != 'lo'}
        self.started = True
        if not self.attached:
            info('*** trimswitch %s has no links: not started\n' % self.name)
            return
        problem = nodes.switch_problem(self)
        if problem is not None:
            # Reported, not raised: Mininet has made its links by now, and only its own stop() removes them.
            error('*** %s: not started\n' % problem)
            self.failureReported = True
            return
        for intf in self.attached.values():
            self.cmd('ip link set dev %s up' % intf)
        env = dict(os.environ, **({'TRIMSWITCH_JAVA_OPTS': self.javaOpts} if self.javaOpts else {}))
        with open(self.logFile, 'w') as log:
            self.process = self.popen(nodes.switch_command(self), stdin=subprocess.DEVNULL, stdout=log,
                                      stderr=subprocess.STDOUT, env=env, cwd=REPO)
        nodes.await_ports(self)

    def connected(self):
        """Whether start() is over. A switch that failed was reported then (or is now, once) and counts as connected
        too, so that Mininet's wait for switches ends and its tests show the loss, rather than wait for ever."""
        if self.process is not None and self.process.poll() is not None and not self.failureReported:
            self.failureReported = True
            error('*** trimswitch %s has stopped (%d):\n%s' % (self.name, self.process.returncode, self.log()))
        return self.started

    def stop(self, deleteIntfs=True):
        """Stops the switch (SIGTERM, up to 10 s, then SIGKILL) and removes its files."""
        nodes.end_switch(self)
        Switch.stop(self, deleteIntfs)

    def log(self):
        """What the switch has printed so far."""
        return nodes.read_text(self.logFile)

    def attach(self, intf):
        """Makes a Mininet interface of the switch (a link's end, by name or Intf) its port: Mininet's port number less
        one. Before start() it joins the command line. Once the switch runs, `trimswitch ctl add-port N@IFACE` gives it
        to the running switch (after net.addLink: `net.addLink(h4, s1); s1.attach('s1-eth4')`). Returns its reply."""
        return nodes.attach_port(self, intf)

    def detach(self, intf):
        """Takes a port off the running switch (`trimswitch ctl del-port N`): its queued packets are counted as dropped,
        its counters stay. Returns the switch's reply."""
        return nodes.detach_port(self, intf)

    def stats(self, *args):
        """`trimswitch stats` of this switch (e.g. stats('--json')), as text."""
        return nodes.switch_stats(self, *args)

    def pid_of_switch(self):
        """The `trimswitch run` process's id, or None."""
        return None if self.process is None else self.process.pid


CLI.do_trimstats = nodes.trimstats

switches = {'trimswitch': TrimSwitch}
hosts = {'ndp': NdpHost}
topos = {'leafspine': LeafSpine}
