package io.trimswitch.uet;

import io.trimswitch.config.Settings;
import io.trimswitch.simulator.Fabric;
import io.trimswitch.simulator.TransportHosts;
import io.trimswitch.simulator.TransportRun;
import io.trimswitch.simulator.VirtualTimeEngine;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.trafficmanager.PacketFifo;

/**
 * Ultra Ethernet hosts on a fabric, NSCC and the load balancer of their settings: the numbers derived from the fabric,
 * the data queues' ECN marking they rely on, and their section of the report.
 */
final class UetFabricRun implements TransportRun {
    private final Fabric fabric;
    private final UetNetwork derived;
    private final UetHosts hosts;

    private UetFabricRun(final Fabric fabric, final UetNetwork derived, final UetHosts hosts) {
        this.fabric = fabric;
        this.derived = derived;
        this.hosts = hosts;
    }

    static UetFabricRun of(final Fabric fabric, final UetSettings settings) {
        final Fabric.Numbers numbers = fabric.numbers();
        final UetNetwork derived = UetNetwork.of(numbers, settings);
        final Fabric.Flows flows = fabric.flows();
        final UetMessages messages = flows.messageEnds() == null ? null : new UetMessages(flows.messageEnds(), flows.messageStarts());
        final UetHosts hosts = new UetHosts(fabric.hostSettings(), fabric.hosts(), flows.sender(), flows.receiver(), flows.start(), flows.size(),
            messages, flows.description() + ", UET " + settings.loadBalancer().label(), fabric.entropyPaths(), settings, derived.nscc(),
            derived.initialWindowBytes(), derived.rtoPicos());
        if (settings.oversubscribedCcOn(numbers.oversubscription())) {
            // As uet-htsim: receivers pacing on an oversubscribed tree pull no faster than its core carries.
            hosts.oversubscribedCc(numbers.oversubscription(), derived.rttPicos(), fabric.seed());
        }
        return new UetFabricRun(fabric, derived, hosts);
    }

    @Override
    public TransportHosts hosts() {
        return hosts;
    }

    @Override
    public int windowPackets() {
        return derived.windowPackets();
    }

    @Override
    public void switchesBuilt(final VirtualTimeEngine engine) {
        final boolean receiverPaced = derived.settings().cc().receiver();
        for (int sw = 0; sw < engine.switches(); sw++) {
            final AssembledSwitch assembly = engine.node(sw).assembly();
            final Settings own = engine.node(sw).settings();
            for (int port = 0; port < assembly.ports(); port++) {
                // As uet-htsim, a link slowed by --fail keeps its queue's and its ECN thresholds' time: both shrink with its rate.
                final double slowed = fabric.rateLeft(sw, port);
                // As uet-htsim, receivers that pace their senders leave the racks' links to hosts unmarked.
                final boolean toHost = fabric.hostFacing(sw, port);
                assembly.port(port).ecnMarking(receiverPaced && toHost ? null : derived.marking(fabric.seed(), sw, port, slowed));
                if (slowed < 1 && assembly.port(port).dataQueue() instanceof PacketFifo fifo) {
                    // The queue htsim shrinks counts the packet being sent, as the whole one did: one fewer waits here.
                    fifo.limit(Math.max(1, (int) ((own.fabric().dataQueuePackets() + 1) * slowed) - 1));
                }
            }
        }
    }

    @Override
    public UetReport report(final VirtualTimeEngine engine) {
        long timeouts = 0;
        long quickAdapts = 0;
        long pulls = 0;
        long credit = 0;
        for (int flow = 0; flow < hosts.flows(); flow++) {
            timeouts += hosts.timeouts(flow);
            quickAdapts += hosts.quickAdapts(flow);
            pulls += hosts.pulls(flow);
            credit += hosts.grantedBytes(flow);
        }
        long marked = 0;
        for (int sw = 0; sw < engine.switches(); sw++) {
            final AssembledSwitch assembly = engine.node(sw).assembly();
            for (int port = 0; port < assembly.ports(); port++) {
                marked += assembly.port(port).ecnMarking() != null ? assembly.port(port).ecnMarking().marked() : 0;
            }
        }
        final UetSettings s = derived.settings();
        return new UetReport(s.loadBalancer().label(), s.entropies(), derived.rttPicos() / 1e6, derived.bdpPackets(), derived.targetDelayPicos() / 1e6,
            derived.ecnLowPackets(), derived.ecnHighPackets(), derived.rtoPicos() / 1e6, hosts.nacksSent(), hosts.lastHopNacks(), timeouts, quickAdapts,
            marked, s.cc().receiver() ? new UetReport.Rccc(s.cc().label(), pulls, credit, hosts.oversubscribedCc()) : null);
    }
}
