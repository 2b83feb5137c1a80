package io.trimswitch.uet;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.packet.FrameTemplates;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimKind;
import io.trimswitch.dataplane.packet.WorkloadFrames;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.simulator.EndHosts;
import io.trimswitch.simulator.EventType;
import io.trimswitch.simulator.Fabric;
import io.trimswitch.simulator.FlowPlan;
import io.trimswitch.simulator.PlannedHosts;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * Ultra Ethernet end hosts on a network's links, in virtual time: NSCC senders ({@link UetSender}), SACK/NACK
 * receivers ({@link UetReceiver}), with RCCC each receiving host's pull pacer ({@link PullPacers}), and each host's
 * link ({@link UetWire}): PULLs go out on the receiver's link as ACKs do. A link sends one frame after another at line rate; a sender
 * gets the link when it is free and its window allows a packet (flows of one host take turns), while ACKs and NACKs
 * go out behind the frame on the wire. A frame reaches the switch a propagation delay after its last bit left, and
 * only then is it built in a buffer of the switch's pool. Data is sent ECN-capable; a packet's entropy picks its path.
 * A flow completes when its sender has every packet acknowledged, as UET's does.
 */
public final class UetHosts extends PlannedHosts implements UetFrames, UetTimers {
    static final int CONTROL_BYTES = 64;

    private final UetSender sender;
    private final UetMessages messages;
    private final UetReceiver receiver;
    /** RCCC's pull pacers at the receivers, or null: NSCC alone. */
    private final PullPacers pacers;
    /** The oversubscribed receiver CC, or null: off. */
    private OversubscribedCc oversubscribed;
    private final int links;
    private final int entropies;
    private final UetWire wire;
    private final long propagation;
    private final int packetBytes;
    private final boolean[] linkWakeUp;
    /** Per link, the flows whose sender waits for it, in turn. */
    /** The DSCP a switch gives a packet it trims towards a host: such a NACK is a last-hop trim. */
    private final int lastHopDscp;
    private EndHosts.Switch sw;
    private Completions completions;
    private long nacksSent;
    private long lastHopNacks;

    /**
     * Hosts on {@code links} links at the rate, propagation delay and frame size of {@code settings}: flow f from host
     * {@code sender[f]} to {@code receiver[f]}, from {@code start[f]} ps (negative: started by {@link #startNow}),
     * {@code size[f]} packets in {@code messages}' messages (null: one each); NSCC after {@code nscc}, each flow's load
     * balancer of {@code uet}, the timeout {@code rto} ps.
     */
    public UetHosts(final Settings settings, final int links, final int[] sender, final int[] receiver, final long[] start, final int[] size,
        final UetMessages messages, final String description, final Fabric.EntropyPaths paths, final UetSettings uet, final NsccParameters nscc,
        final long initialWindowBytes, final long rto) {
        if (settings.trim().sizeBytes() < UetWire.SHIM_OFFSET + UetHeader.LENGTH) {
            throw new ConfigException("trim.sizeBytes " + settings.trim().sizeBytes() + " would cut the UET header; UET hosts need at least "
                + (UetWire.SHIM_OFFSET + UetHeader.LENGTH));
        }
        super(new FlowPlan(sender, receiver, start, size, 1, description), "UET");
        this.propagation = Picos.fromNanos(settings.transport().propagationNs());
        this.packetBytes = settings.workload().packetBytes();
        this.entropies = uet.entropies();
        this.links = links;
        this.lastHopDscp = settings.trim().dscp();
        final int flows = plan.flows();
        this.messages = messages != null ? messages : UetMessages.single(size, start);
        final EntropyChoice[] balancers = new EntropyChoice[flows];
        for (int flow = 0; flow < flows; flow++) {
            balancers[flow] = EntropyChoice.of(uet.loadBalancer(), uet.entropies(), settings.workload().seed() * 0x9E37_79B9_7F4A_7C15L + flow);
        }
        this.sender = new UetSender(this.messages, nscc, initialWindowBytes, balancers, this, this, rto, uet.cc());
        this.receiver = new UetReceiver(this.messages, this, packetBytes, uet.ackBytes());
        this.pacers = uet.cc().receiver()
            ? new PullPacers(receiver, links, nscc.payloadBytes(), this.sender.credit().maxCredit(), settings.portRateBps(), this, this) : null;
        linkWakeUp = new boolean[links];
        final FrameTemplates templates = new FrameTemplates(2 * flows);
        for (int flow = 0; flow < flows; flow++) {
            templates.define(2 * flow, packetBytes, plan.sender(flow), WorkloadFrames.HOST_ID, plan.receiver(flow), WorkloadFrames.HOST_ID, flow,
                settings.workloadDscp(), settings.trim().ndpUdpPort());
            templates.define(2 * flow + 1, CONTROL_BYTES, plan.receiver(flow), WorkloadFrames.HOST_ID, plan.sender(flow), WorkloadFrames.HOST_ID,
                flow, settings.workloadDscp(), settings.trim().ndpUdpPort());
        }
        final LinkRate rate = new LinkRate(settings.portRateBps());
        this.wire = new UetWire(sender, links, propagation, packetBytes, rate.serialisation(packetBytes), rate.serialisation(CONTROL_BYTES), templates, paths);
    }

    @Override
    public void onCompletion(final Completions listener) {
        this.completions = listener;
    }

    @Override
    public void start(final EndHosts.Switch attached) {
        this.sw = attached;
        if (oversubscribed != null) {
            oversubscribed.start(0);
        }
        for (int flow = 0; flow < plan.flows(); flow++) {
            if (plan.start(flow) >= 0) {
                sw.schedule(plan.start(flow), EventType.FLOW_START, flow);
                // Each later message of a connection is queued at its own time: the sender's start queues the next one.
                for (int m = 1; m < messages.messages(flow); m++) {
                    sw.schedule(messages.messageStart(flow, m), EventType.FLOW_START, flow);
                }
            }
        }
    }

    @Override
    public void startNow(final int flow, final long now) {
        plan.startAt(flow, now);
        sw.schedule(now, EventType.FLOW_START, flow);
    }

    @Override
    public void onEvent(final int type, final int arg, final long now) {
        switch (type) {
            case EventType.LINK_TO_SWITCH -> wire.arrive(sw, arg, now);
            case EventType.PULL_TICK -> {
                if (arg < links) {
                    pacers.turn(arg, now);
                } else {
                    oversubscribed.look(arg - links, now, sender.completed() < plan.flows());
                }
            }
            case EventType.HOST_LINK_FREE -> {
                linkWakeUp[arg] = false;
                serve(arg, now);
            }
            case EventType.RETRANSMIT_TIMEOUT -> sender.timeout(arg, now);
            case EventType.FLOW_START -> sender.start(arg, now);
            default -> throw new IllegalStateException("not a UET event: " + type);
        }
    }

    // ---- the state machines' side -----------------------------------------------------------------------------

    @Override
    public void ready(final int flow, final long now) {
        final int link = plan.sender(flow);
        wire.await(link, flow);
        if (!linkWakeUp[link]) {
            if (wire.free(link) <= now) {
                serve(link, now);
            } else {
                wakeUpAt(link, wire.free(link));
            }
        }
    }

    /** The link is free: the next waiting flow that may send sends one packet. */
    private void serve(final int link, final long now) {
        for (int flow = wire.next(link); flow >= 0; flow = wire.next(link)) {
            if (sender.canSend(flow)) {
                sender.sendNext(flow, wire.waiting(link), Math.max(now, wire.free(link)));
                if (sender.canSend(flow)) {
                    wire.await(link, flow);
                }
                if (wire.waiting(link) > 0) {
                    wakeUpAt(link, wire.free(link));
                }
                return;
            }
        }
    }

    private void wakeUpAt(final int link, final long time) {
        linkWakeUp[link] = true;
        sw.schedule(time, EventType.HOST_LINK_FREE, link);
    }

    @Override
    public void data(final int flow, final int psn, final int entropy, final boolean ackRequest, final long pullTarget, final long now) {
        final int flags = UetHeader.FLAG_DATA | (ackRequest ? UetHeader.FLAG_ACK_REQUEST : 0);
        wire.transmit(sw, plan.sender(flow), now, UetWire.KIND_DATA, flags, flow, psn, entropy, 0, 0, 0, pullTarget);
    }

    @Override
    public void pull(final int flow, final long pullNumber, final long now) {
        // A receiver sprays its PULLs over the entropies in turn.
        final int entropy = (int) (pacers.pulls(flow) % entropies);
        wire.transmit(sw, plan.receiver(flow), now, UetWire.KIND_PULL, UetHeader.FLAG_PULL, flow, 0, entropy, 0, 0, 0, pullNumber);
    }

    @Override
    public void pullAt(final long time, final int host) {
        sw.schedule(time, EventType.PULL_TICK, host);
    }

    /** The oversubscribed receiver CC's looks share the pull pacers' event, numbered after the links. */
    @Override
    public void congestionAt(final long time, final int host) {
        sw.schedule(time, EventType.PULL_TICK, links + host);
    }

    /**
     * Turns on the oversubscribed receiver CC (with RCCC): each receiver's pull rate follows
     * the trims and ECN marks it sees, down to 0.9 over {@code oversubscription}; it looks about every 1.5 {@code baseRtt} ps.
     */
    public void oversubscribedCc(final double oversubscription, final long baseRtt, final long seed) {
        if (pacers == null) {
            throw new IllegalStateException("the oversubscribed receiver CC paces the receivers' pulls: it needs RCCC");
        }
        oversubscribed = new OversubscribedCc(links, oversubscription, baseRtt, seed, pacers, this);
    }

    @Override
    public void ack(final int flow, final int psn, final int cumulative, final int received, final int entropy, final boolean ecnEcho,
        final int sackBase, final long sackBits, final long now) {
        wire.transmit(sw, plan.receiver(flow), now, UetWire.KIND_ACK, UetHeader.FLAG_ACK | (ecnEcho ? UetHeader.FLAG_ECN_ECHO : 0), flow, psn, entropy, cumulative,
            received, sackBase, sackBits);
    }

    @Override
    public void nack(final int flow, final int psn, final int cumulative, final int received, final int entropy, final boolean lastHop,
        final boolean ecnEcho, final long now) {
        nacksSent++;
        lastHopNacks += lastHop ? 1 : 0;
        wire.transmit(sw, plan.receiver(flow), now, UetWire.KIND_NACK, UetHeader.FLAG_NACK | (lastHop ? UetHeader.FLAG_LAST_HOP : 0)
            | (ecnEcho ? UetHeader.FLAG_ECN_ECHO : 0), flow, psn, entropy, cumulative, received, 0, 0);
    }

    @Override
    public void retransmitAt(final long time, final int flow) {
        sw.schedule(time, EventType.RETRANSMIT_TIMEOUT, flow);
    }

    @Override
    public void arriveAtHost(final int handle, final long now) {
        final PacketPool pool = sw.pool();
        final UnsafeBuffer buffer = pool.buffer(handle);
        final int frame = pool.offset(handle);
        final int shim = UetHeader.find(buffer, frame, Math.min(pool.length(handle), pool.storedBytes()));
        final int flow = pool.flow(handle);
        if (shim == UetHeader.NOT_UET || flow < 0) {
            pool.free(handle);
            return;
        }
        final int flags = UetHeader.flags(buffer, shim);
        final int psn = UetHeader.psn(buffer, shim);
        final int entropy = UetHeader.entropy(buffer, shim);
        final boolean marked = UetHeader.ecn(buffer, frame) == UetHeader.CE;
        final boolean trimmed = pool.trimKind(handle) != TrimKind.NONE;
        final boolean lastHop = UetHeader.dscp(buffer, frame) == lastHopDscp;
        final int cumulative = UetHeader.cumulative(buffer, shim);
        final int received = UetHeader.received(buffer, shim);
        final int sackBase = UetHeader.sackBase(buffer, shim);
        final long sackBits = UetHeader.sackBits(buffer, shim);
        pool.free(handle);
        if ((flags & UetHeader.FLAG_DATA) != 0) {
            if (oversubscribed != null) {
                oversubscribed.onData(plan.receiver(flow), marked, trimmed, lastHop);
            }
            if (trimmed) {
                if (receiver.onTrimmed(flow, psn, entropy, lastHop, marked, now) && pacers != null) {
                    pacers.onPullTarget(flow, sackBits, now);
                    pacers.onTrimmed(flow, now);
                }
            } else {
                if (pacers != null) {
                    pacers.onPullTarget(flow, sackBits, now);
                }
                receiver.onData(flow, psn, entropy, marked, (flags & UetHeader.FLAG_ACK_REQUEST) != 0, now);
            }
        } else if ((flags & UetHeader.FLAG_PULL) != 0) {
            sender.onPull(flow, sackBits, now);
        } else if ((flags & UetHeader.FLAG_ACK) != 0) {
            final int before = sender.completed();
            sender.onAck(flow, psn, cumulative, received, entropy, (flags & UetHeader.FLAG_ECN_ECHO) != 0, sackBase, sackBits, now);
            if (completions != null && sender.completed() > before) {
                completions.completed(flow, now);
            }
        } else {
            sender.onNack(flow, psn, entropy, (flags & UetHeader.FLAG_LAST_HOP) != 0, (flags & UetHeader.FLAG_ECN_ECHO) != 0, now);
        }
    }

    @Override
    public long propagationPicos() {
        return propagation;
    }

    @Override
    public void reset() {
        plan.resetStarts();
        sender.reset();
        receiver.reset();
        if (pacers != null) {
            pacers.reset();
        }
        if (oversubscribed != null) {
            oversubscribed.reset();
        }
        wire.reset();
        Arrays.fill(linkWakeUp, false);
        nacksSent = 0;
        lastHopNacks = 0;
    }

    // ---- what the report reads ---------------------------------------------------------------

    /** NACKs the receivers sent in the last run. */
    public long nacksSent() {
        return nacksSent;
    }

    /** Of those, NACKs of packets the last hop trimmed. */
    public long lastHopNacks() {
        return lastHopNacks;
    }

    /** RCCC's PULLs to {@code flow}'s sender in the last run; 0 without RCCC. */
    public long pulls(final int flow) {
        return pacers == null ? 0 : pacers.pulls(flow);
    }

    /** Whether the oversubscribed receiver CC paces the receivers' pulls. */
    public boolean oversubscribedCc() {
        return oversubscribed != null;
    }

    /** The credit those PULLs granted, bytes. */
    public long grantedBytes(final int flow) {
        return pacers == null ? 0 : pacers.grantedBytes(flow);
    }

    public long timeouts(final int flow) {
        return sender.timeouts(flow);
    }

    public long quickAdapts(final int flow) {
        return sender.quickAdapts(flow);
    }

    @Override
    public long completionPicos(final int flow) {
        return sender.completion(flow);
    }

    /** When message {@code message} of {@code flow} had every packet acknowledged; -1 if it did not. */
    @Override
    public long messageCompletionPicos(final int flow, final int message) {
        return sender.messageCompletion(flow, message);
    }

    @Override
    public long retransmissions(final int flow) {
        return sender.retransmissions(flow);
    }

    @Override
    public int completedFlows() {
        return sender.completed();
    }

    @Override
    public int longestFrame() {
        return packetBytes;
    }
}
