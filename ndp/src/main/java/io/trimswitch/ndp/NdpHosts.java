package io.trimswitch.ndp;

import io.trimswitch.switching.source.Pattern;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.simulator.EndHosts;
import io.trimswitch.simulator.EventType;
import io.trimswitch.simulator.FlowPlan;
import io.trimswitch.simulator.HostLinks;
import io.trimswitch.simulator.PathChoice;
import io.trimswitch.simulator.PlannedHosts;
import io.trimswitch.simulator.ShimArrival;

/**
 * NDP end hosts (Handley et al., SIGCOMM 2017) around the switch, so that a run is a whole experiment: the flows
 * ({@link FlowPlan}), the hosts' links into the switch ({@link HostLinks}), the senders ({@link NdpSender}), the
 * receivers ({@link NdpReceiver}) and their pull pacers ({@link PullPacer}). ACK, NACK and PULL are 64-byte NDP
 * frames through the same switch (its header queues). The senders, receivers and pacers are the clock-agnostic
 * state machines that live hosts run too; this class drives them in virtual time: it turns their wake-ups into
 * events, and hands each event and each frame that reaches a host to the part it is for.
 */
public final class NdpHosts extends PlannedHosts {
    private final HostLinks links;
    private final NdpSender sender;
    private final NdpReceiver receiver;
    private final PullPacer pacer;
    /** The frame reaching a host, read into again for each one. */
    private final ShimArrival arrival = new ShimArrival();
    private EndHosts.Switch sw;
    /** Told of each flow that completes, at the instant its receiver has every packet; null: nobody listens. */
    private Completions completions;

    /** The state machines' wake-ups, as events on the switch's queue. */
    private final NdpTimers events = new NdpTimers() {
        @Override
        public void retransmitAt(final long time, final int flow) {
            sw.schedule(time, EventType.RETRANSMIT_TIMEOUT, flow);
        }

        @Override
        public void pullAt(final long time, final int link) {
            sw.schedule(time, EventType.PULL_TICK, link);
        }
    };

    NdpHosts(final Settings settings, final Pattern pattern) {
        this(settings, new FlowPlan(settings, pattern,
            new LinkRate(settings.portRateBps()).serialisation(settings.workload().packetBytes())), null);
    }

    private NdpHosts(final Settings settings, final FlowPlan plan, final HostLinks hostLinks) {
        this(settings, plan, hostLinks, 1, PullPacer.Order.ARRIVAL);
    }

    private NdpHosts(
        final Settings settings, final FlowPlan plan, final HostLinks hostLinks, final double pullRate, final PullPacer.Order pullOrder) {
        super(plan, "NDP");
        this.links = hostLinks != null ? hostLinks : new HostLinks(settings, plan);
        // The state machines see the shared plan and links through their own two small views (same kinds, 0 to 3).
        final NdpFlows flows = new NdpFlows() {
            @Override
            public int flows() {
                return plan.flows();
            }

            @Override
            public int size(final int flow) {
                return plan.size(flow);
            }

            @Override
            public int window(final int flow) {
                return plan.window(flow);
            }
        };
        final NdpFrames frames = links::transmit;
        this.sender = new NdpSender(flows, frames, events, Picos.fromMicros(settings.transport().rtoUs()));
        this.receiver = new NdpReceiver(flows, frames, links::receiverLink);
        final long[] pullTimes = links.packetTimes();
        if (pullRate != 1) {
            for (int link = 0; link < pullTimes.length; link++) {
                pullTimes[link] = Math.round(pullTimes[link] / pullRate);
            }
        }
        this.pacer = new PullPacer(pullTimes, plan.flows(), frames, events, receiver::receiving, pullOrder);
        receiver.pullFrom(pacer);
    }

    /**
     * Hosts on {@code links} links of their own (a network's): flow f goes from host {@code sender[f]} to host
     * {@code receiver[f]}, starts at {@code start[f]} ps and is {@code size[f]} packets long; each host sends and
     * receives on its own link, at the rate, delay, frame size, window and RTO of {@code settings}.
     */
    public static NdpHosts onLinks(
        final Settings settings, final int links, final int[] sender, final int[] receiver, final long[] start, final int[] size,
        final String description, final PathChoice paths) {
        return onLinks(settings, links, sender, receiver, start, size, description, paths, 1, PullPacer.Order.ARRIVAL);
    }

    /**
     * As above, each receiving host pulling at {@code pullRate} of its link's rate and serving its flows in
     * {@code pullOrder} (htsim's pacers pull at 0.99, each flow in turn).
     */
    public static NdpHosts onLinks(
        final Settings settings, final int links, final int[] sender, final int[] receiver, final long[] start, final int[] size,
        final String description, final PathChoice paths, final double pullRate, final PullPacer.Order pullOrder) {
        final FlowPlan plan = new FlowPlan(sender, receiver, start, size, settings.transport().initialWindowPackets(), description);
        return new NdpHosts(settings, plan, new HostLinks(settings, plan, links, false, paths), pullRate, pullOrder);
    }

    /** The hosts of a lone switch's ports and the flows of {@code pattern}, as {@link VirtualTimeSwitch} runs them. */
    public static NdpHosts forPattern(final Settings settings, final Pattern pattern) {
        return new NdpHosts(settings, pattern);
    }

    /** Schedules every flow's start; a flow whose start is negative waits for {@link #startNow}. */
    @Override
    public void start(final EndHosts.Switch attached) {
        this.sw = attached;
        links.attach(attached);
        scheduleStarts(attached);
    }

    @Override
    public void onCompletion(final Completions listener) {
        this.completions = listener;
    }

    @Override
    public void startNow(final int flow, final long now) {
        plan.startAt(flow, now);
        sw.schedule(now, EventType.FLOW_START, flow);
    }

    @Override
    public void onEvent(final int type, final int arg, final long now) {
        switch (type) {
            case EventType.LINK_TO_SWITCH -> links.arrive(arg, now);
            case EventType.PULL_TICK -> pacer.tick(arg, now);
            case EventType.RETRANSMIT_TIMEOUT -> sender.timeout(arg, now);
            case EventType.FLOW_START -> sender.start(arg, now);
            default -> throw new IllegalStateException("not an NDP event: " + type);
        }
    }

    /** How long a frame takes from the switch to its host (and back). */
    @Override
    public long propagationPicos() {
        return links.propagationPicos();
    }

    public boolean done() {
        return receiver.completed() == plan.flows();
    }

    /** A frame that left the switch a propagation delay ago reaches its host, which consumes (and frees) it. */
    @Override
    public void arriveAtHost(final int handle, final long now) {
        if (!arrival.take(sw.pool(), handle)) {
            return;
        }
        final int flow = arrival.flow();
        final int sequence = arrival.sequence();
        if (!arrival.control()) {
            final int before = receiver.completed();
            receiver.onData(flow, sequence, arrival.trimmed(), now);
            if (completions != null && receiver.completed() > before) {
                completions.completed(flow, now);
            }
        } else if (arrival.ack()) {
            sender.onAck(flow, sequence, now);
        } else if (arrival.nack()) {
            sender.onNack(flow, sequence, now);
        } else {
            sender.onPull(flow, now);
        }
    }

    @Override
    public void reset() {
        plan.resetStarts();
        sender.reset();
        receiver.reset();
        pacer.reset();
        links.reset();
    }

    // ---- what the report reads ---------------------------------------------------------------

    @Override
    public long completionPicos(final int flow) {
        return receiver.completion(flow);
    }

    @Override
    public long retransmissions(final int flow) {
        return sender.retransmissions(flow);
    }

    @Override
    public int completedFlows() {
        return receiver.completed();
    }

    @Override
    public int longestFrame() {
        return links.packetBytes();
    }
}
