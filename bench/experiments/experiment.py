"""What the live experiments (bench/experiments/*.py) share, on top of mininet/lab.py: their settings from the
environment, the star of Mininet hosts around one trimswitch that the incast experiments build, the incast loads, the
warm-up flow, experiment 1's settings and the figures' arithmetic.

Each experiment is `sudo /usr/bin/python3 bench/experiments/NAME.py [OUT_DIR]` (Debian's python3, which has Mininet and
matplotlib); its settings are environment variables, as docs/hosts.md lists them. It exits 0 once it has printed its
figures and drawn its plot, 2 on a bad setting (one line), 1 on a failure and 3 when the host was too slow for a wait.
"""

import json
import os
import re
import resource
import shutil
import signal
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'mininet'))

import lab  # noqa: E402
from lab import BadInput, Failed  # noqa: E402,F401
from mininet.node import Node  # noqa: E402

# Debian's package for each tool an experiment needs.
PACKAGES = {'ping': 'iputils-ping', 'ip': 'iproute2', 'memcslap': 'libmemcached-tools'}
NDP_PORT = 666
# The switches' JVMs run with the launcher's own options (its full compiler), as `trimswitch run` does outside
# Mininet, rather than the small-footprint ones mininet/trimswitch.py gives a lab of many switches: an experiment has
# one to three.
SWITCH_JAVA_OPTS = ''


def script():
    return os.path.basename(sys.argv[0])


def one_session():
    """Every process Mininet starts for an experiment (hosts' tools, switches) stays in the experiment's own session:
    `mnexec -a`, where Mininet's default `mnexec -da` gives each its own. Linux's autogroup scheduler
    (kernel.sched_autogroup_enabled) shares the cores equally between sessions, and a session per NDP host and switch
    starved the receivers' pull clocks on a busy machine: the trimming setup's NDP load through the 0.1 Gb/s port ran at
    0.051 to 0.063 Gb/s with 2000 to 3800 trims, against 0.090 Gb/s and 334 trims in one session (ping_under_incast,
    runs side by side at a load average of 17 to 19)."""
    if getattr(Node.popen, 'oneSession', False):
        return
    default = Node.popen

    def popen(node, *args, **kwargs):
        kwargs.setdefault('mncmd', ['mnexec', '-a', str(node.pid)])
        return default(node, *args, **kwargs)

    popen.oneSession = True
    Node.popen = popen


# --- settings ---

def number(name, default):
    """Environment variable NAME (DEFAULT when unset): a positive number below 10^9, else BadInput naming it."""
    text = os.environ.get(name, default)
    if not re.fullmatch(r'[0-9]{1,9}([.][0-9]+)?', text) or float(text) == 0:
        raise BadInput("%s: %s must be a positive number below 1000000000, not '%s'" % (script(), name, text))
    return float(text)


def whole(name, default, most=999999999):
    """Environment variable NAME (DEFAULT when unset): a whole number from 1 to MOST, else BadInput naming it."""
    value = lab.env_whole(name, default)
    if value > most:
        raise BadInput('%s: %s must be a whole number from 1 to %d, got %d' % (script(), name, most, value))
    return value


def gbps(value):
    """A rate as the tool's options take it: 0.1, 1."""
    return '%g' % value


def prepare(args, tools):
    """Checks what the experiment needs before it builds anything: at most one argument (OUT_DIR), root, each of TOOLS
    on the PATH and matplotlib. Returns OUT_DIR, made if need be (a fresh temporary folder without one)."""
    if len(args) > 1:
        raise BadInput('usage: %s [OUT_DIR]' % script())
    if os.geteuid() != 0:
        raise BadInput('%s: needs root (Mininet)' % script())
    for tool in tools:
        if shutil.which(tool) is None:
            raise BadInput('%s: needs %s: apt-get install %s' % (script(), tool, PACKAGES.get(tool, tool)))
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise BadInput('%s: needs matplotlib for its plot: apt-get install python3-matplotlib (and /usr/bin/python3)'
                       % script())
    out = args[0] if args else tempfile.mkdtemp(prefix='trimswitch-experiment-')
    os.makedirs(out, exist_ok=True)
    return os.path.abspath(out)


def prefix(tag):
    """What every Mininet node's name begins with: PREFIX from the environment, else TAG and the last digits of the
    process id, so that two runs at once do not meet. At most 5 characters: an interface's name (PREFIX + 'leafA-eth5')
    must fit Linux's 15."""
    text = os.environ.get('PREFIX', '%s%03d' % (tag, os.getpid() % 1000))
    if not re.fullmatch(r'[A-Za-z][A-Za-z0-9]{0,4}', text):
        raise BadInput("%s: PREFIX must be 1 to 5 letters and digits, beginning with a letter, not '%s'"
                       % (script(), text))
    return text


def exp1_settings():
    """Experiment 1's NDP settings, for ecmp_vs_spraying.py and for live_vs_virtual.py, which runs it: PACKETS (1000),
    SPRAY (64), WINDOW (30) and MTU (9000), each refused in one line when out of range (at most what a host sprays over,
    and what virtual time's NDP flows hold: 16-bit sequence numbers)."""
    settings = {'WINDOW': whole('WINDOW', 30), 'SPRAY': whole('SPRAY', 64, 256),
                'PACKETS': whole('PACKETS', 1000, 65535), 'MTU': whole('MTU', 9000, 9000)}
    if settings['MTU'] < 1280:
        raise BadInput('%s: MTU must be 1280..9000, not %d' % (script(), settings['MTU']))
    return settings


def exp1_signature(rate, settings):
    """What experiment 1's runs depend on: ecmp_vs_spraying.py writes it, live_vs_virtual.py checks an earlier run's."""
    return 'RATE=%s PACKETS=%d MTU=%d SPRAY=%d WINDOW=%d' % (gbps(rate), settings['PACKETS'], settings['MTU'],
                                                             settings['SPRAY'], settings['WINDOW'])


# --- files ---

def write_json(path, value):
    with open(path, 'w') as out:
        json.dump(value, out, indent=2)


def write_text(path, text):
    with open(path, 'w') as out:
        out.write(text)


def uptime(out):
    """The machine's load now, kept in OUT/uptime.txt for the last line."""
    with open('/proc/loadavg') as load:
        text = 'load average: %s' % ', '.join(load.read().split()[:3])
    write_text(os.path.join(out, 'uptime.txt'), text + '\n')
    return text


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float('nan')


# --- processes ---

def start_in(seconds):
    """The wall-clock instant SECONDS from now, for the senders' --start-at: senders started one after another, each in
    a JVM of its own, then begin their flows together, as the simulator's do."""
    return '%.9f' % (time.time() + seconds)


def late_starters(out, logs):
    """Says which senders reached their --start-at too late (their JVMs took longer to start)."""
    for path in logs:
        found = re.search(r'--start-at was [0-9.]* s ago', lab.read_text(path))
        if found:
            out.say('%s started late: %s' % (os.path.basename(path)[:-len('.log')], found.group()))


def end(processes):
    """SIGTERM to each process still running, then waits for all."""
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    for process in processes:
        process.wait()


def wait_all(processes, what):
    """Waits for every process; Failed with their logs when one exited non-zero."""
    codes = [process.wait() for process in processes]
    if any(codes):
        logs = ''.join(lab.read_text(getattr(process, 'labLog', None)) for process in processes)
        raise Failed('%s: a host exited with %s\n%s' % (what, max(codes), logs))


def children_cpu():
    """CPU seconds (user + system) of every child process waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def process_cpu(pids):
    """CPU seconds (user + system) that the running processes PIDS have used so far."""
    ticks = 0
    for pid in pids:
        with open('/proc/%d/stat' % pid) as stat:
            fields = stat.read().rsplit(')', 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf('SC_CLK_TCK')


def cpu_jiffies():
    """The machine's busy and total jiffies over every core, from /proc/stat."""
    with open('/proc/stat') as stat:
        values = [int(v) for v in stat.readline().split()[1:9]]
    user, nice, system, idle, iowait, irq, softirq, steal = values
    busy = user + nice + system + irq + softirq + steal
    return busy, busy + idle + iowait


def busy_percent(before, after):
    return 100 * (after[0] - before[0]) / max(1, after[1] - before[1])


# --- the switch ---

def offloads_off(*intfs):
    """Segmentation and receive offloads off on each interface: one MTU frame per packet, as on a NIC without them."""
    for intf in intfs:
        intf.node.cmd('ethtool -K %s tso off gso off gro off > /dev/null 2>&1' % intf.name)


def restart(net, switch, config):
    """Starts SWITCH, stopped, again with the settings file CONFIG, on the same links."""
    switch.configFile = config
    net.relaunch(switch)


def stop_cleanly(net, switch, log):
    """Stops SWITCH and checks that it shut down cleanly (Lab.stop_switch); keeps what it printed in LOG."""
    printed = switch.log()
    last = net.stop_switch(switch)
    write_text(log, printed if last in printed else printed + last + '\n')


def reach(net, pairs, count):
    """Each (host, address) of PAIRS pings COUNT times, all at once; Failed naming the first host that got no reply."""
    pings = [(host, address, net.popen(host, ['ping', '-q', '-n', '-c', count, '-i', 0.2, '-W', 2, address]))
             for host, address in pairs]
    for host, address, process in pings:
        if process.wait() != 0:
            raise Failed('host %s cannot reach %s' % (host.name, address))


def stop_switches(net, switches):
    """Stops each (switch, log) of SWITCHES cleanly (stop_cleanly), all at once: their JVMs shut down side by side."""
    problems = []

    def stop(switch, log):
        try:
            stop_cleanly(net, switch, log)
        except Failed as problem:
            problems.append(str(problem))

    threads = [threading.Thread(target=stop, args=pair) for pair in switches]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if problems:
        raise Failed('; '.join(problems))


class Star(object):
    """The star the incast experiments build: one trimswitch whose port p is a link to host NAMES[p] at ADDRESSES[p]
    (/24), every host's and switch port's offloads off, so that the queues count packets. It starts with the settings
    file CONFIG (or the one both_setups gives it)."""

    def __init__(self, net, names, addresses, config=None):
        self.net = net
        self.switch = net.switch('sw1', config=config, javaOpts=SWITCH_JAVA_OPTS)
        self.hosts = {}
        for name, address in zip(names, addresses):
            host = net.host(name, ip='%s/24' % address)
            link = net.link(host, self.switch)
            offloads_off(link.intf1, link.intf2)
            self.hosts[name] = host
        self.names = list(names)
        self.addresses = dict(zip(names, addresses))

    def __getitem__(self, name):
        return self.hosts[name]

    def start(self):
        """Starts the lab and checks that every other host reaches the first one."""
        self.net.start()
        self.check_reach()

    def check_reach(self):
        """Every other host pings the first one; Failed when one cannot."""
        first = self.names[0]
        reach(self.net, [(self.hosts[name], self.addresses[first]) for name in self.names[1:]], 2)

    def stats(self):
        """The switch's counters, by port number."""
        return self.net.stats(self.switch)

    def first_port_tx(self):
        """Packets the switch has sent out of port 0, to the first host, so far."""
        return self.stats()[0]['txPackets']


def save_stats(path, ports):
    """A reading of the counters as `trimswitch stats --json` prints it."""
    write_json(path, [ports[number] for number in sorted(ports)])


def under_load(star, out, name, command):
    """Runs COMMAND between two readings of the switch's counters (OUT/NAME-before.json and -after.json); returns the
    load's rate over it out of port 0 (Gb/s, between the middles of the readings), its trims and its drops."""
    window = [time.time()]
    before = star.stats()
    window.append(time.time())
    command()
    window.append(time.time())
    after = star.stats()
    window.append(time.time())
    save_stats(os.path.join(out, '%s-before.json' % name), before)
    save_stats(os.path.join(out, '%s-after.json' % name), after)
    write_text(os.path.join(out, '%s-window.txt' % name), ' '.join('%.6f' % t for t in window) + '\n')
    seconds = (window[2] + window[3]) / 2 - (window[0] + window[1]) / 2
    port_before, port_after = before[0], after[0]
    return {'loadGbps': (port_after['txBytes'] - port_before['txBytes']) * 8 / seconds / 1e9,
            'trims': port_after.get('txTrimPackets', 0) - port_before.get('txTrimPackets', 0),
            'drops': sum(port_after.get('drops', {}).values()) - sum(port_before.get('drops', {}).values())}


class Incast(object):
    """A long-lived incast from hosts s1..sN of a star into its first host, at its first address, on the star's
    1514-byte frames: for the baseline, iperf3 TCP flows for TCP_SECONDS; otherwise an NDP receiver pulling at RATE and
    senders on SENDER_RATE links sending for LOAD_S."""

    def __init__(self, star, out, name, settings, tcp_seconds):
        self.star, self.out, self.name = star, out, name
        self.settings = settings
        self.receiver = star[star.names[0]]
        self.address = star.addresses[star.names[0]]
        self.senders = [star['s%d' % i] for i in range(1, settings['SENDERS'] + 1)]
        self.tcp_seconds = tcp_seconds
        self.servers, self.ndp_receiver, self.flows = [], None, []

    def path(self, what):
        return os.path.join(self.out, '%s-%s' % (self.name, what))

    def start(self):
        """Starts the load and returns once LOAD_WARMUP packets have left the first host's port since."""
        net, settings = self.star.net, self.settings
        if self.name == 'baseline':
            for i in range(1, len(self.senders) + 1):
                self.servers.append(lab.iperf3_server(net, self.receiver, 5200 + i))
            for i, sender in enumerate(self.senders, 1):
                self.flows.append(net.popen(sender, ['iperf3', '-c', self.address, '-p', 5200 + i, '-t',
                                                     self.tcp_seconds, '-J'], log=self.path('iperf%d.json' % i)))
        else:
            self.ndp_receiver = lab.ndp_host(net, self.receiver, [
                '--listen', '%s:%d' % (self.address, NDP_PORT), '--rate-gbps', gbps(settings['RATE']),
                '--payload-bytes', 1450, '--expect-flows', len(self.senders), '--timeout-s', 60],
                self.path('receiver.json'), log=self.path('receiver.log'))
            lab.poll(60, 'the NDP receiver to bind', lambda: lab.still_running(self.ndp_receiver, 'the NDP receiver')
                     and lab.udp_bound(self.receiver, NDP_PORT))
            for i, sender in enumerate(self.senders, 1):
                self.flows.append(lab.ndp_host(net, sender, [
                    '--connect', '%s:%d' % (self.address, NDP_PORT), '--duration-s', '%g' % settings['LOAD_S'],
                    '--rate-gbps', gbps(settings['SENDER_RATE']), '--payload-bytes', 1450, '--rto-ms', 50,
                    '--timeout-s', 60], self.path('sender%d.json' % i), log=self.path('sender%d.log' % i)))
        start = self.star.first_port_tx()
        lab.poll(120, "the incast to move %d packets through %s's port" % (settings['LOAD_WARMUP'], self.receiver.name),
                 lambda: self.star.first_port_tx() >= start + settings['LOAD_WARMUP'])

    def stop(self, out, until):
        """Ends the load: SIGTERM to every process (a long-lived NDP sender then ends its flow with the next packet and
        reports what it delivered; the receiver ends with their flows). Says so when an NDP sender ended before UNTIL."""
        if self.ndp_receiver is not None and any(flow.poll() is not None for flow in self.flows):
            out.say('%s: a sender ended before %s did (raise LOAD_S)' % (self.name, until))
        end(self.flows)
        if self.ndp_receiver is not None:
            try:
                self.ndp_receiver.wait(timeout=30)
            except Exception:
                pass
            end([self.ndp_receiver])
        end(self.servers)


def star_yaml(queue, rates):
    """A star switch's settings: one data queue of QUEUE packets (DSCP 10 trims, the rest is dropped when it does not
    fit); RATES, a (Gb/s or None, comment) pair for each port."""
    lines = ['mechanism: tofino', 'fabric:', '  dataQueuePackets: %d' % queue, 'trim:', '  trimmableDscp: [10]',
             'realtime:', '  idle: poll', 'forwarding:', '  mode: l2', 'ports:']
    for rate, comment in rates:
        port = '  - {}' if rate is None else '  - {rateGbps: %s}' % gbps(rate)
        lines.append(port if not comment else '%-29s# %s' % (port, comment))
    return '\n'.join(lines) + '\n'


def incast_settings(senders):
    """Experiment 2's settings from the environment (RATE, SENDER_RATE, BIG, SMALL, LOAD_WARMUP), for SENDERS senders."""
    return {'RATE': number('RATE', '0.1'), 'SENDER_RATE': number('SENDER_RATE', '1'), 'BIG': whole('BIG', 200),
            'SMALL': whole('SMALL', 12), 'LOAD_WARMUP': whole('LOAD_WARMUP', 1000), 'SENDERS': senders}


SETUPS = (('baseline', 'BIG', 'tail drop, %d packets'), ('trimming', 'SMALL', 'trimming, %d packets'))


def both_setups(out, folder, settings, star, last_port, phase, tcp_seconds, until):
    """Experiment 2's two setups on STAR (started with the first's settings): a data queue of BIG packets that drops,
    with TCP senders, then one of SMALL packets that trims, with NDP senders; the star's ports: the receiver's at RATE,
    the senders' at SENDER_RATE and, when LAST_PORT names it, one more port (unlimited). In each: PHASE(NAME, 'idle'),
    the incast (TCP for TCP_SECONDS), PHASE(NAME, 'loaded') under it, the load ended once it is done. Returns the load
    over each loaded phase (under_load), by setup."""
    rates = [(settings['RATE'], '%s, the incast\'s receiver' % star.names[0])]
    rates += [(settings['SENDER_RATE'], None)] * settings['SENDERS']
    rates += [(None, last_port)] if last_port else []
    results = {}
    for name, queue, _ in SETUPS:
        config = os.path.join(folder, '%s-switch.yaml' % name)
        write_text(config, star_yaml(settings[queue], rates))
        if name == SETUPS[0][0]:
            star.switch.configFile = config
            star.start()
        else:
            restart(star.net, star.switch, config)
            star.check_reach()
        out.say('%s: data queue of %d packets; %s idle' % (name, settings[queue], until))
        phase(name, 'idle')
        incast = Incast(star, folder, name, settings, tcp_seconds)
        incast.start()
        out.say('%s: %s under the %d:1 incast' % (name, until, settings['SENDERS']))
        results[name] = under_load(star, folder, name, lambda: phase(name, 'loaded'))
        incast.stop(out, until)
        stop_cleanly(star.net, star.switch, os.path.join(folder, '%s-switch.log' % name))
    return results


def labels(settings, load):
    """Each setup's label in the figures, by name: 'tail drop, 200 packets, TCP' and so on."""
    return {name: (label % settings[queue]) + ', ' + kind for (name, queue, label), kind in zip(SETUPS, load)}


def warm_up(net, receiver, sender, address, rate, spray=1, payload=1398):
    """A 2-second NDP flow from SENDER to RECEIVER (at ADDRESS), unmeasured, in packets of PAYLOAD data bytes (give the
    measured runs' size, so that the switches take the same paths), so that every live switch on its paths has compiled
    its dataplane before the measured runs, as the benchmarks warm theirs up: a switch just started runs its first
    packets interpreted, and a single NDP flow through it then takes 1.3 to 1.5 times as long."""
    listener = net.popen(receiver, net.tool('host', '--listen', '%s:%d' % (address, NDP_PORT), '--rate-gbps', gbps(rate),
                                            '--payload-bytes', payload, '--expect-flows', 1, '--timeout-s', 20),
                         log=os.path.join(net.scratch, 'warm-up-receiver.log'))
    lab.poll(60, 'the warm-up receiver to bind', lambda: lab.still_running(listener, 'the warm-up receiver')
             and lab.udp_bound(receiver, NDP_PORT))
    result = net.run(sender, net.tool('host', '--connect', '%s:%d' % (address, NDP_PORT), '--duration-s', 2,
                                      '--rate-gbps', 1, '--spray', spray, '--payload-bytes', payload, '--timeout-s', 20))
    if result.code != 0:
        raise Failed('the warm-up flow from %s to %s failed:\n%s' % (sender.name, receiver.name, result.text))
    if listener.wait() != 0:
        raise Failed('the warm-up receiver on %s failed:\n%s' % (receiver.name, lab.read_text(listener.labLog)))


# --- plots ---

def pyplot():
    """matplotlib's pyplot, drawing to files."""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    return plt


def save_plot(fig, folder, name):
    """Draws FIG into FOLDER/NAME.png."""
    fig.tight_layout()
    fig.savefig(os.path.join(folder, name + '.png'), dpi=110)


def run(tag, tools, settings, body):
    """An experiment's program: SETTINGS() from the environment, prepare(TOOLS), BODY(out, folder, settings), the line
    that says where the results are; exits with lab.main's code (2 on a bad setting, before anything is built)."""
    def main(out):
        s = settings()
        folder = prepare(sys.argv[1:], tools)
        one_session()
        body(out, folder, s)
        out.say('results in %s (%s)' % (folder, uptime(folder)))

    sys.exit(lab.main(tag, main))
