package io.trimswitch.uet;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.trafficmanager.EcnMarking;
import io.trimswitch.simulator.Fabric;

import java.util.ArrayList;
import java.util.List;

/**
 * Ultra Ethernet on a fabric (an htsim experiment's fat tree): the numbers uet-htsim derives from the network (its unloaded
 * round trip over the tree's diameter, the bandwidth-delay product in packets, the target delay, the ECN thresholds,
 * the retransmission timeout), the switches' trim marks that tell a last-hop trim from an earlier one, and the
 * ECN marking of every data queue.
 *
 * @param rttPicos          the network's unloaded round trip: every link's delay over the diameter both ways, one data
 *                          packet's and one ACK's serialisation per hop
 * @param bdpPackets        the round trip's bandwidth-delay product in data packets, rounded up
 * @param targetDelayPicos  NSCC's target delay: the setting, or 0.75 of the round trip
 * @param ecnLowPackets     the depth where marking starts: the setting, or 0.2 BDP rounded up
 * @param ecnHighPackets    the depth where every packet is marked: the setting, or 0.8 BDP rounded up
 * @param rtoPicos          the timeout: the setting, or 15 µs and six data queues' drain time
 * @param initialWindowBytes the first window: the setting in packets, or 0 (1.5 BDP)
 */
record UetNetwork(UetSettings settings, long rttPicos, int bdpPackets, long targetDelayPicos, int ecnLowPackets, int ecnHighPackets,
    long rtoPicos, long initialWindowBytes, int frameBytes, int mtu, long hostRateBps) {

    /** A packet trimmed before its last hop is remarked to the last hop's trimmed DSCP plus this. */
    static final int FABRIC_DSCP_OFFSET = 1;

    static UetNetwork of(final Fabric.Numbers fabric, final UetSettings uet) {
        final int tiers = fabric.tiers();
        final int diameter = 2 * tiers;
        final double gbps = fabric.hostRateGbps();
        final long hop = Picos.fromNanos(fabric.linkLatencyNs());
        final int frame = fabric.frameBytes();
        final long rtt = 2 * hop * diameter + Math.round(frame * 8 / gbps * diameter * 1000) + Math.round(64 * 8 / gbps * diameter * 1000);
        final long rateBps = Math.round(gbps * 1e9);
        final int bdp = (int) Math.ceil(rtt * 1e-12 * rateBps / 8 / frame);
        final long target = uet.targetDelayUs() != null ? Picos.fromMicros(uet.targetDelayUs()) : NsccParameters.defaultTargetDelay(rtt);
        final int low = uet.ecnLowPackets() != null ? uet.ecnLowPackets() : (int) Math.ceil(bdp * 0.2);
        final int high = uet.ecnHighPackets() != null ? uet.ecnHighPackets() : (int) Math.ceil(bdp * 0.8);
        // htsim's queue size, which counts the packet being sent: one more than wait in the data queue here.
        final long queueBytes = (long) (fabric.dataQueuePackets() + 1) * frame;
        final long rto = uet.rtoUs() != null ? Picos.fromMicros(uet.rtoUs()) : Picos.fromMicros(15 + queueBytes * 6.0 * 8 * 1e6 / rateBps);
        final long window = uet.initialWindowPackets() != null ? (long) uet.initialWindowPackets() * frame : 0;
        return new UetNetwork(uet, rtt, bdp, target, low, high, rto, window, frame, fabric.mtu(), rateBps);
    }

    /** htsim_uec's queue when none is given, one bandwidth-delay product: in whole packets of MTU and headers, or in MTUs of payload. */
    static int defaultQueuePackets(final Fabric.Numbers fabric, final boolean wholePackets) {
        final UetNetwork derived = of(fabric, UetSettings.DEFAULTS);
        return wholePackets ? derived.bdpPackets : (int) Math.ceil((double) derived.bdpPackets * fabric.frameBytes() / fabric.mtu());
    }

    NsccParameters nscc() {
        return new NsccParameters(rttPicos, hostRateBps, targetDelayPicos, frameBytes, mtu);
    }

    /** The largest window a flow reaches, in packets: how many of its packets can be in flight. */
    int windowPackets() {
        final long largest = Math.max(initialWindowBytes, (long) (1.5 * rttPicos * 1e-12 * hostRateBps / 8));
        return (int) Math.min(65_535, largest / frameBytes + 1);
    }

    /**
     * A switch's settings with UET's trim marks: a packet trimmed towards a host keeps the last hop's DSCP, one trimmed
     * towards another switch gets that DSCP plus {@link #FABRIC_DSCP_OFFSET}; {@code hostPorts} ports face hosts. Headers
     * and control packets go before data strictly, as uet-htsim's queues serve them (100,000 to one).
     */
    static Settings marked(final Settings settings, final int hostPorts, final int ports) {
        final List<Integer> fabric = new ArrayList<>();
        for (int port = hostPorts; port < ports; port++) {
            fabric.add(port);
        }
        final int dscp = settings.trim().dscp() + FABRIC_DSCP_OFFSET;
        return settings.withTrim(t -> t.withFabricDscp(dscp).withFabricPorts(fabric))
            .withFabric(f -> new Settings.Fabric(f.pipelines(), f.portsPerPipeline(), f.portRateGbps(), f.dataQueuePackets(), f.headerQueuePackets(), 0))
            .validate();
    }

    /**
     * Data-queue marking for port {@code port} of switch {@code sw}, at the thresholds in bytes of whole data packets,
     * times {@code scale} (a slowed link's fraction of its rate).
     */
    EcnMarking marking(final long seed, final int sw, final int port, final double scale) {
        return new EcnMarking((long) (ecnLowPackets * frameBytes * scale), (long) (ecnHighPackets * frameBytes * scale),
            seed * 0x9E37_79B9_7F4A_7C15L + ((long) sw << 16) + port);
    }
}
