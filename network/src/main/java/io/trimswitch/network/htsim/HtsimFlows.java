package io.trimswitch.network.htsim;

import io.trimswitch.simulator.Fabric;
import io.trimswitch.simulator.TransportHosts;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The flows of a connection matrix as the NDP hosts take them (flow f is the matrix's f-th line), and its triggers:
 * a flow that names {@code send_done_trigger} or {@code recv_done_trigger} fires that trigger when its receiver has
 * every packet, and the trigger starts its flows then (a one-shot or multi-shot trigger at once, a barrier at its
 * count-th firing). With connection reuse (uet-htsim's -conn_reuse), the lines of one id are the messages of one flow,
 * a connection, queued at their starts and sent in that order.
 */
public final class HtsimFlows implements TransportHosts.Completions {
    private final int[] sender;
    private final int[] receiver;
    private final long[] start;
    private final int[] size;
    private final int[] id;
    /** Per flow: its bytes, and with connection reuse (null without) each message's end in packets, its start and its bytes. */
    private final long[] bytes;
    private final int[][] messageEnds;
    private final long[][] messageStarts;
    private final long[][] messageBytes;
    private final String description;
    private final int[] firesOnEnd;
    private final int[] secondOnEnd;
    /** Per trigger id: the flows it starts, its kind and count, and how often it fired in this run. */
    private final Map<Integer, int[]> targets = new HashMap<>();
    private final Map<Integer, HtsimMatrix.Trigger> triggers = new HashMap<>();
    private final Map<Integer, Integer> fired = new HashMap<>();
    /** Starts a flow that waited for a trigger: the hosts' {@code startNow}. */
    private java.util.function.ObjLongConsumer<Integer> startNow;
    private io.trimswitch.switching.record.FlowLifetimes hosts;

    private HtsimFlows(final HtsimExperiment experiment, final boolean reuse) {
        final List<HtsimMatrix.Connection> lines = experiment.matrix().connections();
        final List<List<HtsimMatrix.Connection>> grouped = connections(lines, reuse);
        final List<HtsimMatrix.Connection> connections = grouped.stream().map(g -> g.get(0)).toList();
        final int flows = connections.size();
        bytes = new long[flows];
        sender = new int[flows];
        receiver = new int[flows];
        start = new long[flows];
        size = new int[flows];
        id = new int[flows];
        firesOnEnd = new int[flows];
        secondOnEnd = new int[flows];
        final Map<Integer, java.util.List<Integer>> started = new HashMap<>();
        long total = 0;
        for (int flow = 0; flow < flows; flow++) {
            final HtsimMatrix.Connection c = connections.get(flow);
            sender[flow] = c.src();
            receiver[flow] = c.dst();
            start[flow] = experiment.startPicos(c);
            for (final HtsimMatrix.Connection m : grouped.get(flow)) {
                size[flow] += (int) experiment.packets(m);
                bytes[flow] += m.sizeBytes();
            }
            if (size[flow] > 65_535) {
                throw new io.trimswitch.config.ConfigException("--conn-reuse: connection id " + c.id() + " carries " + size[flow]
                    + " packets; at most 65535 per connection (raise --mtu)");
            }
            id[flow] = c.id();
            firesOnEnd[flow] = c.recvDoneTrigger();
            secondOnEnd[flow] = c.sendDoneTrigger();
            total += bytes[flow];
            if (c.triggered()) {
                started.computeIfAbsent(c.trigger(), t -> new java.util.ArrayList<>()).add(flow);
            }
        }
        for (final HtsimMatrix.Trigger t : experiment.matrix().triggers()) {
            triggers.put(t.id(), t);
            targets.put(t.id(), started.getOrDefault(t.id(), List.of()).stream().mapToInt(Integer::intValue).toArray());
        }
        description = experiment.matrix().source() + ": " + flows + " flows, " + (reuse ? lines.size() + " messages, " : "") + total + " bytes in "
            + experiment.getMtu() + "-byte packets" + (triggers.isEmpty() ? "" : ", " + triggers.size() + " triggers");
        if (!reuse) {
            messageEnds = null;
            messageStarts = null;
            messageBytes = null;
            return;
        }
        final int[][] ends = new int[flows][];
        final long[][] starts = new long[flows][];
        messageBytes = new long[flows][];
        for (int flow = 0; flow < flows; flow++) {
            final List<HtsimMatrix.Connection> each = grouped.get(flow);
            ends[flow] = new int[each.size()];
            starts[flow] = new long[each.size()];
            messageBytes[flow] = new long[each.size()];
            for (int m = 0; m < each.size(); m++) {
                ends[flow][m] = (m == 0 ? 0 : ends[flow][m - 1]) + (int) experiment.packets(each.get(m));
                starts[flow][m] = experiment.startPicos(each.get(m));
                messageBytes[flow][m] = each.get(m).sizeBytes();
            }
        }
        messageEnds = ends;
        messageStarts = starts;
    }

    /**
     * The matrix's lines by connection: each line its own, or with {@code reuse} the lines of one id together (a line
     * without an id stays alone), in the order their messages are queued: by start, then as written.
     */
    private static List<List<HtsimMatrix.Connection>> connections(final List<HtsimMatrix.Connection> lines, final boolean reuse) {
        final List<List<HtsimMatrix.Connection>> grouped = new java.util.ArrayList<>();
        final Map<Integer, List<HtsimMatrix.Connection>> byId = new HashMap<>();
        for (final HtsimMatrix.Connection c : lines) {
            if (reuse && (c.triggered() || c.sendDoneTrigger() != 0 || c.recvDoneTrigger() != 0)) {
                throw new io.trimswitch.config.ConfigException("--conn-reuse: flow " + c.src() + "->" + c.dst()
                    + " names a trigger; triggers on messages are not modelled");
            }
            final List<HtsimMatrix.Connection> same = reuse && c.id() != 0 ? byId.get(c.id()) : null;
            if (same == null) {
                final List<HtsimMatrix.Connection> own = new java.util.ArrayList<>(List.of(c));
                grouped.add(own);
                if (reuse && c.id() != 0) {
                    byId.put(c.id(), own);
                }
            } else if (same.get(0).src() != c.src() || same.get(0).dst() != c.dst()) {
                throw new io.trimswitch.config.ConfigException("--conn-reuse: id " + c.id() + " is " + same.get(0).src() + "->" + same.get(0).dst()
                    + " and " + c.src() + "->" + c.dst() + "; the messages of a connection share its two hosts");
            } else {
                same.add(c);
            }
        }
        if (reuse) {
            grouped.forEach(g -> g.sort(java.util.Comparator.comparingDouble(HtsimMatrix.Connection::startUs)));
        }
        return grouped;
    }

    static HtsimFlows of(final HtsimExperiment experiment) {
        return new HtsimFlows(experiment, false);
    }

    /** The matrix's flows, with {@code reuse} the lines of one id as the messages of one connection. */
    public static HtsimFlows of(final HtsimExperiment experiment, final boolean reuse) {
        return new HtsimFlows(experiment, reuse);
    }

    /** The flows as a transport's hosts take them: the same arrays, not copies, which nobody writes after parsing. */
    public Fabric.Flows fabricFlows() {
        return new Fabric.Flows(sender, receiver, start, size, messageEnds, messageStarts, description);
    }

    public int count() {
        return sender.length;
    }

    /** The matrix's id of {@code flow}'s connection; 0 when its line named none. */
    public int id(final int flow) {
        return id[flow];
    }

    /** All bytes of {@code flow}: of its one line, or with connection reuse of all its messages. */
    public long bytes(final int flow) {
        return bytes[flow];
    }

    /** Whether flows carry messages (connection reuse); only then do the message accessors below answer. */
    public boolean carriesMessages() {
        return messageEnds != null;
    }

    public int messages(final int flow) {
        return messageEnds[flow].length;
    }

    /** When message {@code m} of {@code flow} is queued, in ps. */
    public long messageStartPicos(final int flow, final int m) {
        return messageStarts[flow][m];
    }

    public long messageBytes(final int flow, final int m) {
        return messageBytes[flow][m];
    }

    /** Listens to {@code hosts}' completions when the matrix has triggers: a trigger fires when a flow completes, as its transport counts it. */
    public void attach(final TransportHosts transportHosts) {
        this.hosts = transportHosts;
        this.startNow = (flow, now) -> transportHosts.startNow(flow, now);
        if (!triggers.isEmpty()) {
            transportHosts.onCompletion(this);
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
    public void reset() {
        fired.clear();
    }
}
