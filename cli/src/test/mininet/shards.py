"""A live switch whose ports are shared out over pipeline shards (two pipelines of two ports, `realtime.pipelineThreads:
2`: ports 0-1 on shard 0, ports 2-3 on shard 1), Mininet hosts on links to its interface ports. One case per run:
  two-shards   four hosts: every pair pings, and TCP (iperf3) runs from a host of one shard to a host of the other
  new-port     a switch started with two ports is given a third Mininet link while it runs (net.addLink, then the
               TrimSwitch's attach, which is `ctl add-port 2@IFACE`): a number past the next one is refused in one
               line, the new host pings the others and sends TCP (iperf3) through it, `ctl show` lists the port with
               its shard, `stats` and the metrics endpoint count it, and it is detached (`ctl del-port`) and attached
               again like a port the switch started with
  new-port-one-shard  the same with both pipelines on one shard: a port added to a shard that has others
SHARD_THREADS=1 runs two-shards' hosts and TCP on one thread instead, for its figures beside two (docs/benchmarks.md).
Run as root with /usr/bin/python3 (Mininet); needs iperf3. Exit 0 passed, 1 failed, 3 host too slow.
Nodes: PREFIX (tp + a number) + s1, h0..h3.
"""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'mininet'))

import lab  # noqa: E402
from lab import BadInput, Failed  # noqa: E402

SHARDS = '''fabric:
  pipelines: 2
  portsPerPipeline: 2
realtime:
  pipelineThreads: %d
'''


def two_shards(out, net, config, threads):
    hosts = [net.host('h%d' % i, '10.9.0.%d/24' % (i + 1)) for i in range(4)]
    switch = net.switch('s1', config=config, idle='poll')
    for host in hosts:
        net.link(host, switch)
    net.start()
    for port, thread in ((1, 0), (2, threads - 1)):
        if not re.search(r'port %d: interface %s .* on thread %d' % (port, switch.intfs[port + 1].name, thread),
                         switch.log()):
            raise Failed('port %d is not on shard %d:\n%s' % (port, thread, switch.log()))
    lab.ping_every_pair(hosts)
    out.say('every pair of the four hosts pings, across the two shards and within each' if threads == 2
            else 'every pair of the four hosts pings, on one shard')
    end = lab.tcp_burst(net, hosts[0], hosts[3], '10.9.0.4', least=1000000)
    out.say('TCP from host 0 on shard 0 to host 3 on shard %d: %.2f Gb/s received'
            % (threads - 1, end['sum_received']['bits_per_second'] / 1e9))
    ports = lab.drained(net, switch)
    received, sent = ports[0]['rxPackets'], ports[3]['txPackets']
    if received <= 1000 or sent <= 1000:
        raise Failed('port 0 took %d packets and port 3 sent %d: TCP did not cross' % (received, sent))
    out.say('port 0 took %d packets, port 3 sent %d' % (received, sent))
    return switch


def new_port(out, net, config, threads):
    hosts = [net.host('h%d' % i, '10.9.0.%d/24' % (i + 1)) for i in range(2)]
    switch = net.switch('s1', config=config, idle='poll', metrics='127.0.0.1:19464')
    for host in hosts:
        net.link(host, switch)
    net.start()
    lab.ping_every_pair(hosts)
    hosts.append(net.host('h2', '10.9.0.3/24'))
    intf = net.link(hosts[2], switch).intf2.name
    hosts[2].configDefault()  # its address and loopback, as Mininet's build gives the hosts it makes
    refused = net.ctl(switch, 'add-port', '3@' + intf)
    if refused.code != 2 or len(refused.text.strip().splitlines()) != 1:
        raise Failed('add-port past the next port number was not refused in one line: %r' % (refused,))
    shard = threads - 1
    reply = switch.attach(intf)
    if 'port 2 added on %s, pipeline 1 on thread %d' % (intf, shard) not in reply:
        raise Failed('attach of %s did not add port 2 to shard %d: %s' % (intf, shard, reply))
    lab.await_line(switch, 'port 2 (%s): up' % intf)
    lab.ping_every_pair(hosts)
    out.say('the new port 2 on shard %d: every pair of the three hosts pings' % shard)
    # Many packets through the new port, each queued while its egress may have gone idle: it is woken every time.
    end = lab.tcp_burst(net, hosts[2], hosts[0], '10.9.0.1', least=1000000)
    out.say('TCP from the new port to host 0: %.2f Gb/s received' % (end['sum_received']['bits_per_second'] / 1e9))
    show = net.ctl(switch, 'show').out
    if not re.search(r'^2 +interface +%s +up +100 +1 +%d$' % (re.escape(intf), shard), show, re.M):
        raise Failed('ctl show does not list port 2 up, pipeline 1 on thread %d:\n%s' % (shard, show))
    ports = net.stats(switch)
    if ports[2].get('rxDatagrams', 0) < 4 or ports[2].get('txPackets', 0) < 4:
        raise Failed("stats does not count port 2's pings: %s" % ports[2])
    metrics = net.run(switch, ['/usr/bin/python3', '-c', 'import urllib.request; print(urllib.request.urlopen('
                               '"http://127.0.0.1:19464/metrics", timeout=5).read().decode())'])
    if not any(line.startswith('trimswitch_port_tx_packets_total{') and 'port="2"' in line
               for line in metrics.out.splitlines()):
        raise Failed('the metrics endpoint has no trimswitch_port_tx_packets_total for port 2: %s' % metrics.err)
    out.say('ctl show lists port 2 on thread %d; stats and the metrics endpoint count it' % shard)
    reply = switch.detach(intf)
    if 'port 2 (%s) removed' % intf not in reply:
        raise Failed('detach did not remove the new port: %s' % reply)
    reply = switch.attach(intf)
    if 'port 2 added on %s' % intf not in reply:
        raise Failed('attach did not put the new port back: %s' % reply)
    lab.expect(5, "the new port's link to come up again", lambda: switch.log().count('port 2 (%s): up' % intf) >= 2)
    lab.ping_every_pair([hosts[0], hosts[2]])
    out.say('the new port removed and added again: host 2 pings host 0')
    return switch


def shard_threads(case):
    """SHARD_THREADS: 1 or 2, as the switch has two pipelines; one for new-port-one-shard."""
    if case == 'new-port-one-shard':
        return 1
    threads = lab.env_whole('SHARD_THREADS', 2)
    if threads > 2:
        raise BadInput('SHARD_THREADS must be 1 or 2 (the switch has two pipelines), got %d' % threads)
    return threads


CASES = {'two-shards': two_shards, 'new-port': new_port, 'new-port-one-shard': new_port}


def run(out):
    case = sys.argv[1] if len(sys.argv) > 1 else None
    if case not in CASES:
        raise BadInput('name the case: %s' % ' or '.join(CASES))
    threads = shard_threads(case)
    with lab.Lab(lab.name_prefix('tp', argument=2)) as net:
        config = os.path.join(net.scratch, 'shards.yaml')
        with open(config, 'w') as settings:
            settings.write(SHARDS % threads)
        switch = CASES[case](out, net, config, threads)
        net.stop_switch(switch)


if __name__ == '__main__':
    sys.exit(lab.main('shards', run))
