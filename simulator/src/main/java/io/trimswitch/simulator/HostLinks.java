package io.trimswitch.simulator;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.codec.NdpHeader;
import io.trimswitch.dataplane.packet.FrameTemplates;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.WorkloadFrames;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.dataplane.time.Picos;

import java.util.function.IntToLongFunction;

/**
 * The hosts' links into the switch, the model every transport whose frames carry the NDP-style shim shares: NDP's and
 * plug-ins that send DATA and get ACK, NACK or PULL back. Each link sends one frame after another at line rate, and a frame reaches
 * the switch a propagation delay after its last bit left; only then is it built in a buffer of the switch's pool.
 * With separate hosts (the default, as in the reproduced evaluation) the host that receives on port p is not the
 * one that sends there: it has a link and an egress port of its own, so its control packets never queue behind
 * data for port p. A port with a rate of its own gives its hosts' links that rate.
 */
public final class HostLinks {
    /** The kinds of frame a flow sends: data from its sender; ACK, NACK and PULL from its receiver, back. */
    public static final int DATA = 0;
    public static final int ACK = 1;
    public static final int NACK = 2;
    public static final int PULL = 3;

    public static final int CONTROL_BYTES = 64;

    private final FlowPlan plan;
    private final int ports;
    private final boolean separate;
    private final int packetBytes;
    /** Per link, the frames on it: one entry each, kind and flow, pull number and sequence. */
    private final HostLinkTimeline timeline;
    /** Per flow, its data frames (template 2 × flow) and the control frames back to its sender (2 × flow + 1). */
    private final FrameTemplates templates;
    private final PathChoice paths;
    private EndHosts.Switch sw;

    /** The hosts of one switch's ports: link p on port p, and with separate hosts the receivers' links after them. */
    public HostLinks(final Settings settings, final FlowPlan plan) {
        this(settings, plan, settings.egressPorts(), settings.separateHosts(), PathChoice.NONE, settings::portRateBps);
    }

    /**
     * {@code links} host links with the rate, propagation delay and frames of {@code settings}; host h sends and
     * receives on link h unless {@code separate}. Every frame carries the path {@code paths} chooses for it.
     */
    public HostLinks(final Settings settings, final FlowPlan plan, final int links, final boolean separate, final PathChoice paths) {
        this(settings, plan, links, separate, paths, link -> settings.portRateBps());
    }

    /** As above, link l at {@code rateBps(l)}: a lone switch's port p (and its separate receiver) at port p's rate. */
    private HostLinks(
        final Settings settings, final FlowPlan plan, final int links, final boolean separate, final PathChoice paths,
        final IntToLongFunction rateBps) {
        this.plan = plan;
        this.ports = settings.portCount();
        this.separate = separate;
        this.paths = paths;
        this.packetBytes = settings.workload().packetBytes();
        final long[] packetTime = new long[links];
        final long[] controlTime = new long[links];
        for (int link = 0; link < links; link++) {
            final LinkRate rate = new LinkRate(rateBps.applyAsLong(link));
            packetTime[link] = rate.serialisation(packetBytes);
            controlTime[link] = rate.serialisation(CONTROL_BYTES);
        }
        timeline = new HostLinkTimeline(packetTime, controlTime, Picos.fromNanos(settings.transport().propagationNs()), 1);
        final int flows = plan.flows();
        templates = new FrameTemplates(2 * flows);
        final int dscp = settings.workloadDscp();
        final int ndpUdpPort = settings.trim().ndpUdpPort();
        final int receiverHost = separate ? WorkloadFrames.RECEIVER_HOST_ID : WorkloadFrames.HOST_ID;
        for (int flow = 0; flow < flows; flow++) {
            final int src = plan.sender(flow);
            final int dst = plan.receiver(flow);
            templates.define(2 * flow, packetBytes, src, WorkloadFrames.HOST_ID, dst, receiverHost, flow, dscp, ndpUdpPort);
            templates.define(2 * flow + 1, CONTROL_BYTES, dst, receiverHost, src, WorkloadFrames.HOST_ID, flow, dscp, ndpUdpPort);
        }
    }

    public void attach(final EndHosts.Switch attached) {
        this.sw = attached;
    }

    /** The link of the host that sends {@code flow}. */
    public int senderLink(final int flow) {
        return plan.sender(flow);
    }

    /** The link of the host that receives {@code flow}. */
    public int receiverLink(final int flow) {
        return separate ? ports + plan.receiver(flow) : plan.receiver(flow);
    }

    /** Per link, one MTU's serialisation time on it: its host's pull pacer's clock. */
    public long[] packetTimes() {
        return timeline.packetTimes();
    }

    public long propagationPicos() {
        return timeline.propagationPicos();
    }

    public int packetBytes() {
        return packetBytes;
    }

    /** Data onto its sender's link, ACK, NACK and PULL onto its receiver's. */
    public void transmit(final int kind, final int flow, final int sequence, final int pull, final long now) {
        transmit(kind == DATA ? senderLink(flow) : receiverLink(flow), now, kind, flow, sequence, pull);
    }

    /** Puts a frame of {@code kind} on {@code link} behind whatever is already on it. */
    void transmit(final int link, final long now, final int kind, final int flow, final int sequence, final int pull) {
        final long arrival = timeline.send(link, now, kind == DATA);
        timeline.put(sw, link, arrival, kind << 16 | flow, (pull & 0xFFFF) << 16 | sequence);
    }

    /** The frame at the head of {@code link} reaches the switch: it is built in a buffer and handed to ingress. */
    public void arrive(final int link, final long now) {
        final int first = timeline.headFirst(link);
        final int second = timeline.headSecond(link);
        final int kind = first >>> 16;
        final int flow = first & 0xFFFF;
        final int sequence = second & 0xFFFF;
        final int pull = second >>> 16;
        timeline.removeHead(link);
        timeline.next(sw, link);
        final int handle = sw.allocate();
        if (handle == PacketPool.NO_PACKET) {
            sw.noBuffer(flow, kind != DATA);
            return;
        }
        final PacketPool pool = sw.pool();
        // A link carries its frames in the order they were sent, so choosing the path here is choosing it at sending.
        if (kind == DATA) {
            templates.write(pool.buffer(handle), pool.offset(handle), 2 * flow, NdpHeader.FLAG_DATA, sequence, 0, paths.next(flow, true));
            pool.length(handle, packetBytes);
        } else {
            final int flags = kind == ACK ? NdpHeader.FLAG_ACK : kind == NACK ? NdpHeader.FLAG_NACK : NdpHeader.FLAG_PULL;
            templates.write(pool.buffer(handle), pool.offset(handle), 2 * flow + 1, flags, sequence, pull, paths.next(flow, false));
            pool.length(handle, CONTROL_BYTES);
        }
        pool.ingressPort(handle, link);
        pool.flow(handle, flow);
        pool.sequence(handle, sequence);
        sw.inject(handle, kind != DATA, now);
    }

    int links() {
        return timeline.links();
    }

    public void reset() {
        paths.reset();
        timeline.reset();
    }
}
