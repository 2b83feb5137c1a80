package io.trimswitch.uet;

import io.trimswitch.config.ConfigException;
import io.trimswitch.switching.source.Pattern;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.simulator.FlowPlan;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.trafficmanager.EcnMarking;

/**
 * Ultra Ethernet hosts on a lone switch's ports, one host per port: the numbers a fat tree's UET hosts derive from
 * their network (as uet-htsim derives them), here from a path of two links (host, switch, host), and every data
 * queue's ECN marking.
 *
 * @param rttPicos         the unloaded round trip: both links' delay both ways, one data packet's and one ACK's
 *                         serialisation per link
 * @param bdpPackets       the round trip's bandwidth-delay product in data packets, rounded up
 * @param targetDelayPicos NSCC's target delay: the setting, or 0.75 of the round trip
 * @param ecnLowPackets    where marking starts: the setting, or 0.2 BDP rounded up
 * @param ecnHighPackets   where every packet is marked: the setting, or 0.8 BDP rounded up
 * @param rtoPicos         the timeout: the setting, or 15 µs and six drain times of a data queue and the packet on the wire
 */
record LoneSwitchUet(UetSettings settings, long rttPicos, int bdpPackets, long targetDelayPicos, int ecnLowPackets, int ecnHighPackets,
    long rtoPicos) {
    /** Links on the longest path: host to switch, switch to host. */
    private static final int DIAMETER = 2;
    /** Ethernet, IPv4, UDP and the UET shim and state: what a packet carries besides its payload. */
    private static final int HEADER_BYTES = UetHosts.CONTROL_BYTES;

    static LoneSwitchUet of(final Settings settings, final UetSettings uet) {
        final int frame = settings.workload().packetBytes();
        if (frame <= HEADER_BYTES) {
            throw new ConfigException("workload.packetBytes must be above " + HEADER_BYTES + " with UET hosts (their headers), got " + frame);
        }
        final long rate = settings.portRateBps();
        final LinkRate link = new LinkRate(rate);
        final long hop = Picos.fromNanos(settings.transport().propagationNs());
        final long rtt = 2 * hop * DIAMETER + DIAMETER * (link.serialisation(frame) + link.serialisation(HEADER_BYTES));
        final int bdp = (int) Math.ceil(rtt * 1e-12 * rate / 8 / frame);
        final long target = uet.targetDelayUs() != null ? Picos.fromMicros(uet.targetDelayUs()) : NsccParameters.defaultTargetDelay(rtt);
        final int low = uet.ecnLowPackets() != null ? uet.ecnLowPackets() : (int) Math.ceil(bdp * 0.2);
        final int high = uet.ecnHighPackets() != null ? uet.ecnHighPackets() : (int) Math.ceil(bdp * 0.8);
        final long queueBytes = (long) (settings.fabric().dataQueuePackets() + 1) * frame;
        final long rto = uet.rtoUs() != null ? Picos.fromMicros(uet.rtoUs()) : Picos.fromMicros(15 + queueBytes * 6.0 * 8 * 1e6 / rate);
        return new LoneSwitchUet(uet, rtt, bdp, target, low, high, rto);
    }

    /** The hosts of the switch's ports and the flows of {@code pattern} (and any background flows of {@code settings}). */
    UetHosts hosts(final Settings settings, final Pattern pattern) {
        final int frame = settings.workload().packetBytes();
        final FlowPlan plan = new FlowPlan(settings, pattern, new LinkRate(settings.portRateBps()).serialisation(frame));
        final int flows = plan.flows();
        final int[] sender = new int[flows];
        final int[] receiver = new int[flows];
        final long[] start = new long[flows];
        final int[] size = new int[flows];
        for (int flow = 0; flow < flows; flow++) {
            sender[flow] = plan.sender(flow);
            receiver[flow] = plan.receiver(flow);
            start[flow] = plan.start(flow);
            size[flow] = plan.size(flow);
        }
        // The plan names its hosts NDP's: "PATTERN (ndp...)".
        final String planned = plan.description();
        final String prefix = pattern.text() + " (ndp";
        final String description = planned.startsWith(prefix) ? pattern.text() + " (uet" + planned.substring(prefix.length()) : planned;
        final NsccParameters nscc = new NsccParameters(rttPicos, settings.portRateBps(), targetDelayPicos, frame, frame - HEADER_BYTES);
        final long window = settings().initialWindowPackets() != null ? (long) settings().initialWindowPackets() * frame : 0;
        return new UetHosts(settings, settings.portCount(), sender, receiver, start, size, null, description, (flow, forward, entropy) -> 0,
            this.settings, nscc, window, rtoPicos);
    }

    /** Every port's data queue marks CE between the thresholds, each port with a coin of its own. */
    void mark(final AssembledSwitch assembly, final Settings settings) {
        if (settings().cc().receiver()) {
            // As uet-htsim, receivers that pace their senders leave the links to hosts unmarked: here every link.
            return;
        }
        final long frame = settings.workload().packetBytes();
        for (int port = 0; port < assembly.ports(); port++) {
            assembly.port(port).ecnMarking(new EcnMarking(ecnLowPackets * frame, ecnHighPackets * frame,
                settings.workload().seed() * 0x9E37_79B9_7F4A_7C15L + port));
        }
    }
}
