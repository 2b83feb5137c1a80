package io.trimswitch.network.fixedwindow;

import io.trimswitch.simulator.EndHosts;
import io.trimswitch.simulator.EventType;
import io.trimswitch.simulator.HostLinks;
import io.trimswitch.simulator.FlowPlan;
import io.trimswitch.simulator.PlannedHosts;
import io.trimswitch.simulator.ShimArrival;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.BitSet;

/**
 * Fixed-window hosts on the shared host links: a sender keeps {@code window} packets in flight, sends a new one for
 * each ACK and the same one again for each NACK; a receiver ACKs each packet that arrives whole and NACKs each trimmed
 * header. A flow completes when its receiver has every packet. (No timer: a lost packet would stall its flow.)
 */
final class FixedWindowHosts extends PlannedHosts {
    private final HostLinks links;
    private final ShimArrival arrival = new ShimArrival();
    private final int window;
    private final int[] nextNew;
    private final int[] inFlight;
    private final long[] resent;
    private final ArrayDeque<Integer>[] again;
    private final BitSet[] received;
    private final long[] completion;
    private int completed;
    private EndHosts.Switch sw;
    private Completions completions;

    @SuppressWarnings("unchecked")
    FixedWindowHosts(final FlowPlan plan, final HostLinks links, final int window) {
        super(plan, "fixed-window");
        this.links = links;
        this.window = window;
        final int flows = plan.flows();
        nextNew = new int[flows];
        inFlight = new int[flows];
        resent = new long[flows];
        again = new ArrayDeque[flows];
        received = new BitSet[flows];
        completion = new long[flows];
        for (int flow = 0; flow < flows; flow++) {
            again[flow] = new ArrayDeque<>();
            received[flow] = new BitSet();
        }
        reset();
    }

    int window() {
        return window;
    }

    @Override
    public void start(final EndHosts.Switch attached) {
        this.sw = attached;
        links.attach(attached);
        scheduleStarts(attached);
    }

    @Override
    public void onEvent(final int type, final int arg, final long now) {
        switch (type) {
            case EventType.LINK_TO_SWITCH -> links.arrive(arg, now);
            case EventType.FLOW_START -> send(arg, now);
            default -> throw new IllegalStateException("not a fixed-window event: " + type);
        }
    }

    /** Fills the flow's window: packets to send again first, then new ones. */
    private void send(final int flow, final long now) {
        while (inFlight[flow] < window && (!again[flow].isEmpty() || nextNew[flow] < plan.size(flow))) {
            final int sequence = again[flow].isEmpty() ? nextNew[flow]++ : again[flow].poll();
            inFlight[flow]++;
            links.transmit(HostLinks.DATA, flow, sequence, 0, now);
        }
    }

    @Override
    public void arriveAtHost(final int handle, final long now) {
        if (!arrival.take(sw.pool(), handle)) {
            return;
        }
        final int flow = arrival.flow();
        final int sequence = arrival.sequence();
        final boolean trimmed = arrival.trimmed();
        if (!arrival.control()) {
            links.transmit(trimmed ? HostLinks.NACK : HostLinks.ACK, flow, sequence, 0, now);
            if (!trimmed && !received[flow].get(sequence)) {
                received[flow].set(sequence);
                if (received[flow].cardinality() == plan.size(flow)) {
                    completion[flow] = now;
                    completed++;
                    if (completions != null) {
                        completions.completed(flow, now);
                    }
                }
            }
            return;
        }
        inFlight[flow]--;
        if (arrival.nack()) {
            resent[flow]++;
            again[flow].add(sequence);
        }
        send(flow, now);
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
    public long propagationPicos() {
        return links.propagationPicos();
    }

    @Override
    public void reset() {
        plan.resetStarts();
        links.reset();
        Arrays.fill(nextNew, 0);
        Arrays.fill(inFlight, 0);
        Arrays.fill(resent, 0);
        Arrays.fill(completion, -1);
        for (int flow = 0; flow < plan.flows(); flow++) {
            again[flow].clear();
            received[flow].clear();
        }
        completed = 0;
    }

    @Override
    public long completionPicos(final int flow) {
        return completion[flow];
    }

    @Override
    public long retransmissions(final int flow) {
        return resent[flow];
    }

    @Override
    public int completedFlows() {
        return completed;
    }

    @Override
    public int longestFrame() {
        return links.packetBytes();
    }
}
