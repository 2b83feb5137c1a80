package io.trimswitch.switching.record;

import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.TrimKind;
import org.HdrHistogram.Histogram;

import java.util.Arrays;

/**
 * The receivers' and the accountant's view of a run: per flow, what was sent, what arrived whole, as a
 * header (by where it was cut) or back at its sender, and what was dropped and why; header latencies
 * and arrival times. Preallocated for the run's packet count: recording allocates nothing.
 */
public final class RunRecorder {
    private static final int REASONS = DropReason.values().length;

    private final int flows;
    private final long[] sent;
    private final long[] whole;
    private final long[] headersByKind;
    private final long[] returned;
    private final long[] dropped;
    private final long[] unattributedDrops = new long[REASONS];
    private final long[] lastArrival;
    /**
     * Made with the first header recorded (200 KB of counts): a live switch's recorders, which see no workload's flows,
     * never need one.
     */
    private Histogram headerLatencyNanos;
    private long[] headerArrivals;
    private int headerCount;
    private long controlSent;
    private long controlDelivered;
    private final long[] controlDropped = new long[REASONS];

    public RunRecorder(final int flows, final int totalPackets) {
        this.flows = flows;
        this.sent = new long[flows];
        this.whole = new long[flows];
        this.headersByKind = new long[flows * TrimKind.COUNT];
        this.returned = new long[flows];
        this.dropped = new long[flows * REASONS];
        this.lastArrival = new long[flows];
        this.headerArrivals = new long[Math.max(16, totalPackets)];
    }

    public void sent(final int flow) {
        sent[flow]++;
    }

    /** A packet of {@code flow} reached a host at {@code now}, whole or cut ({@code trimKind}). */
    public void delivered(final int flow, final byte trimKind, final boolean returnedToSender, final long arrivedAtSwitch, final long now) {
        if (flow < 0) {
            return;
        }
        // Each port delivers in time order, but a run may record one port after another.
        lastArrival[flow] = Math.max(lastArrival[flow], now);
        if (trimKind == TrimKind.NONE) {
            whole[flow]++;
            return;
        }
        headersByKind[flow * TrimKind.COUNT + trimKind]++;
        if (returnedToSender) {
            returned[flow]++;
        }
        headerLatencyNanos().recordValue(Math.min((now - arrivedAtSwitch + 999) / 1000, 10_000_000_000L));
        if (headerCount == headerArrivals.length) {
            headerArrivals = Arrays.copyOf(headerArrivals, headerCount * 2);
        }
        headerArrivals[headerCount++] = now;
    }

    /** An NDP control packet (ACK, NACK, PULL) entered the switch. */
    public void controlSent() {
        controlSent++;
    }

    public void controlDelivered() {
        controlDelivered++;
    }

    public void controlDropped(final DropReason reason) {
        controlDropped[reason.ordinal()]++;
    }

    /** A host's frame entered the switch: an NDP control packet, or a data packet of {@code flow}. */
    public void sent(final boolean control, final int flow) {
        if (control) {
            controlSent++;
        } else {
            sent(flow);
        }
    }

    /** A frame left the switch, or never entered it, for {@code reason}: an NDP control packet, or a data packet of {@code flow}. */
    public void dropped(final boolean control, final int flow, final DropReason reason) {
        if (control) {
            controlDropped(reason);
        } else {
            dropped(flow, reason);
        }
    }

    public long controlSentCount() {
        return controlSent;
    }

    public long controlDeliveredCount() {
        return controlDelivered;
    }

    public long controlDroppedCount() {
        long total = 0;
        for (final long count : controlDropped) {
            total += count;
        }
        return total;
    }

    public void dropped(final int flow, final DropReason reason) {
        if (flow < 0) {
            unattributedDrops[reason.ordinal()]++;
        } else {
            dropped[flow * REASONS + reason.ordinal()]++;
        }
    }

    public int flows() {
        return flows;
    }

    /** Data packets sent, over every flow. */
    public long sentTotal() {
        long total = 0;
        for (int flow = 0; flow < flows; flow++) {
            total += sent[flow];
        }
        return total;
    }

    /** Data packets delivered whole, over every flow. */
    public long wholeTotal() {
        long total = 0;
        for (int flow = 0; flow < flows; flow++) {
            total += whole[flow];
        }
        return total;
    }

    /** Data packets delivered as headers, over every flow. */
    public long headersTotal() {
        long total = 0;
        for (int flow = 0; flow < flows; flow++) {
            total += headersOf(flow);
        }
        return total;
    }

    /** Data packets of a flow dropped, over every flow. */
    public long droppedTotal() {
        long total = 0;
        for (int flow = 0; flow < flows; flow++) {
            total += droppedOf(flow);
        }
        return total;
    }


    public long sentBy(final int flow) {
        return sent[flow];
    }

    public long wholeOf(final int flow) {
        return whole[flow];
    }

    public long headersOf(final int flow, final int trimKind) {
        return headersByKind[flow * TrimKind.COUNT + trimKind];
    }

    public long headersOf(final int flow) {
        long total = 0;
        for (int kind = 0; kind < TrimKind.COUNT; kind++) {
            total += headersByKind[flow * TrimKind.COUNT + kind];
        }
        return total;
    }

    public long returnedOf(final int flow) {
        return returned[flow];
    }

    public long droppedOf(final int flow, final DropReason reason) {
        return dropped[flow * REASONS + reason.ordinal()];
    }

    public long droppedOf(final int flow) {
        long total = 0;
        for (int reason = 0; reason < REASONS; reason++) {
            total += dropped[flow * REASONS + reason];
        }
        return total;
    }

    public long unattributedDrops(final DropReason reason) {
        return unattributedDrops[reason.ordinal()];
    }

    public long lastArrivalOf(final int flow) {
        return lastArrival[flow];
    }

    public Histogram headerLatencyNanos() {
        if (headerLatencyNanos == null) {
            headerLatencyNanos = new Histogram(10_000_000_000L, 3);
        }
        return headerLatencyNanos;
    }

    /** Header arrival times in picoseconds, sorted. */
    public long[] headerArrivalsSorted() {
        final long[] copy = Arrays.copyOf(headerArrivals, headerCount);
        Arrays.sort(copy);
        return copy;
    }

    /** Adds what {@code other} recorded: a real-time run's view, gathered from the threads that each kept one. */
    public void add(final RunRecorder other) {
        if (other.flows != flows) {
            throw new IllegalArgumentException("recorders of " + flows + " and " + other.flows + " flows");
        }
        addAll(sent, other.sent);
        addAll(whole, other.whole);
        addAll(headersByKind, other.headersByKind);
        addAll(returned, other.returned);
        addAll(dropped, other.dropped);
        addAll(unattributedDrops, other.unattributedDrops);
        addAll(controlDropped, other.controlDropped);
        for (int flow = 0; flow < flows; flow++) {
            lastArrival[flow] = Math.max(lastArrival[flow], other.lastArrival[flow]);
        }
        if (other.headerLatencyNanos != null) {
            headerLatencyNanos().add(other.headerLatencyNanos);
        }
        if (headerCount + other.headerCount > headerArrivals.length) {
            headerArrivals = Arrays.copyOf(headerArrivals, headerCount + other.headerCount);
        }
        System.arraycopy(other.headerArrivals, 0, headerArrivals, headerCount, other.headerCount);
        headerCount += other.headerCount;
        controlSent += other.controlSent;
        controlDelivered += other.controlDelivered;
    }

    private static void addAll(final long[] into, final long[] from) {
        for (int i = 0; i < into.length; i++) {
            into[i] += from[i];
        }
    }

    public void reset() {
        Arrays.fill(sent, 0);
        Arrays.fill(whole, 0);
        Arrays.fill(headersByKind, 0);
        Arrays.fill(returned, 0);
        Arrays.fill(dropped, 0);
        Arrays.fill(unattributedDrops, 0);
        Arrays.fill(lastArrival, 0);
        if (headerLatencyNanos != null) {
            headerLatencyNanos.reset();
        }
        headerCount = 0;
        controlSent = 0;
        controlDelivered = 0;
        Arrays.fill(controlDropped, 0);
    }
}
