package io.trimswitch.network;

import io.trimswitch.simulator.NdpHosts;
import io.trimswitch.simulator.UetHosts;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The flows of a connection matrix as the NDP hosts take them (flow f is the matrix's f-th line), and its triggers:
 * a flow that names {@code send_done_trigger} or {@code recv_done_trigger} fires that trigger when its receiver has
 * every packet, and the trigger starts its flows then (a one-shot or multi-shot trigger at once, a barrier at its
 * count-th firing).
 */
final class HtsimFlows implements NdpHosts.Completions, UetHosts.Completions {
    final int[] sender;
    final int[] receiver;
    final long[] start;
    final int[] size;
    final int[] id;
    final String description;
    private final int[] firesOnEnd;
    private final int[] secondOnEnd;
    /** Per trigger id: the flows it starts, its kind and count, and how often it fired in this run. */
    private final Map<Integer, int[]> targets = new HashMap<>();
    private final Map<Integer, HtsimMatrix.Trigger> triggers = new HashMap<>();
    private final Map<Integer, Integer> fired = new HashMap<>();
    /** Starts a flow that waited for a trigger: the hosts' {@code startNow}. */
    private java.util.function.ObjLongConsumer<Integer> startNow;
    private io.trimswitch.switching.FlowLifetimes hosts;

    private HtsimFlows(final HtsimExperiment experiment) {
        final List<HtsimMatrix.Connection> connections = experiment.matrix().connections();
        final int flows = connections.size();
        sender = new int[flows];
        receiver = new int[flows];
        start = new long[flows];
        size = new int[flows];
        id = new int[flows];
        firesOnEnd = new int[flows];
        secondOnEnd = new int[flows];
        final Map<Integer, java.util.List<Integer>> started = new HashMap<>();
        long bytes = 0;
        for (int flow = 0; flow < flows; flow++) {
            final HtsimMatrix.Connection c = connections.get(flow);
            sender[flow] = c.src();
            receiver[flow] = c.dst();
            start[flow] = experiment.startPicos(c);
            size[flow] = (int) experiment.packets(c);
            id[flow] = c.id();
            firesOnEnd[flow] = c.recvDoneTrigger();
            secondOnEnd[flow] = c.sendDoneTrigger();
            bytes += c.sizeBytes();
            if (c.triggered()) {
                started.computeIfAbsent(c.trigger(), t -> new java.util.ArrayList<>()).add(flow);
            }
        }
        for (final HtsimMatrix.Trigger t : experiment.matrix().triggers()) {
            triggers.put(t.id(), t);
            targets.put(t.id(), started.getOrDefault(t.id(), List.of()).stream().mapToInt(Integer::intValue).toArray());
        }
        description = experiment.matrix().source() + ": " + flows + " flows, " + bytes + " bytes in " + experiment.getMtu() + "-byte packets"
            + (triggers.isEmpty() ? "" : ", " + triggers.size() + " triggers");
    }

    static HtsimFlows of(final HtsimExperiment experiment) {
        return new HtsimFlows(experiment);
    }

    /** Listens to {@code ndp}'s completions when the matrix has triggers. */
    void attach(final NdpHosts ndp) {
        this.hosts = ndp;
        this.startNow = (flow, now) -> ndp.startNow(flow, now);
        if (!triggers.isEmpty()) {
            ndp.onCompletion(this);
        }
    }

    /** Listens to {@code uet}'s completions (its senders'): a trigger fires when a flow's last packet is acknowledged. */
    void attach(final UetHosts uet) {
        this.hosts = uet;
        this.startNow = (flow, now) -> uet.startNow(flow, now);
        if (!triggers.isEmpty()) {
            uet.onCompletion(this);
        }
    }

    @Override
    public void completed(final int flow, final long now) {
        fire(firesOnEnd[flow], now);
        fire(secondOnEnd[flow], now);
    }

    private void fire(final int trigger, final long now) {
        if (trigger == 0) {
            return;
        }
        final HtsimMatrix.Trigger t = triggers.get(trigger);
        final int times = fired.merge(trigger, 1, Integer::sum);
        final boolean starts = switch (t.kind()) {
            case ONESHOT -> times == 1;
            case MULTISHOT -> true;
            case BARRIER -> times == t.count();
        };
        if (starts) {
            for (final int flow : targets.get(trigger)) {
                if (hosts.startPicos(flow) < 0) {
                    startNow.accept(flow, now);
                }
            }
        }
    }

    /** Forgets how often each trigger fired: a new run begins. */
    void reset() {
        fired.clear();
    }
}
