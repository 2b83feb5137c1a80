package io.trimswitch.trafficmanager;

import io.trimswitch.dataplane.counters.CounterBlock;
import io.trimswitch.dataplane.counters.CounterName;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.TrimKind;
import org.agrona.UnsafeApi;

import java.util.ArrayList;
import java.util.List;

/**
 * A port's counters, named after SAI's (SAI_PORT_STAT_TRIM_PACKETS, ..._TX_TRIM_PACKETS,
 * ..._DROPPED_TRIM_PACKETS) plus the usual rx/tx and drops by reason, in a {@link CounterBlock} of the switch's
 * {@link CounterRegistry}. Each counter has one writer: rx the port's ingress pipeline, tx its egress, trims and drops
 * whichever component of one thread trimmed or dropped. Where several threads count for one port, each has its own
 * {@code PortCounters} and readers add them up.
 */
public final class PortCounters {
    /** The drops the components count; a live port's own (a short datagram, a full ring) its port kind counts. */
    private static final DropReason[] REASONS = java.util.Arrays.stream(DropReason.values()).filter(DropReason::countedByComponents)
        .toArray(DropReason[]::new);
    private static final int NONE = -1;

    /** Counters in one {@code PortCounters}: what a registry needs per port and writer. */
    public static final int COUNTERS = 8 + TrimKind.COUNT + REASONS.length;

    /**
     * Each counter's place in every port's block, found once by its name in port 0's layout (every port's is the same):
     * counting indexes it and allocates nothing, and a block need not carry its names to be counted into.
     */
    private static final List<CounterName> LAYOUT = names(0);
    private static final int RX_PACKETS = slot(CounterName.of(CounterType.RX_PACKETS, 0));
    private static final int RX_BYTES = slot(CounterName.of(CounterType.RX_BYTES, 0));
    private static final int TX_PACKETS = slot(CounterName.of(CounterType.TX_PACKETS, 0));
    private static final int TX_BYTES = slot(CounterName.of(CounterType.TX_BYTES, 0));
    private static final int TX_TRIM_PACKETS = slot(CounterName.of(CounterType.TX_TRIM_PACKETS, 0));
    private static final int DROPPED_TRIM_PACKETS = slot(CounterName.of(CounterType.DROPPED_TRIM_PACKETS, 0));
    private static final int UNTRIMMABLE_IPV6 = slot(CounterName.of(CounterType.UNTRIMMABLE_IPV6_PACKETS, 0));
    private static final int OVERSIZE_CONTROL = slot(CounterName.of(CounterType.OVERSIZE_CONTROL_PACKETS, 0));
    private static final int[] TRIM_PACKETS = new int[TrimKind.COUNT];
    /** By reason: its counter's place, or NONE for a live port's reason. */
    private static final int[] DROPS = new int[DropReason.values().length];

    static {
        for (int kind = 0; kind < TrimKind.COUNT; kind++) {
            TRIM_PACKETS[kind] = slot(trimName(0, kind));
        }
        java.util.Arrays.fill(DROPS, NONE);
        for (final DropReason reason : REASONS) {
            DROPS[reason.ordinal()] = slot(reason.at(0));
        }
    }

    private final CounterBlock counters;
    /**
     * Where counter 0 lies when the block is packed ({@link CounterBlock#packedBase}), else 0: a packet's rx and tx counts
     * then go straight to memory, without the block and its addresses on the way.
     */
    private final long packed;

    /** Port {@code port}'s counters that {@code writer} (a thread or component, for the labels) writes, in {@code registry}. */
    public PortCounters(final CounterRegistry registry, final int port, final String writer) {
        this.counters = registry.block(writer, COUNTERS, () -> names(port));
        this.packed = counters.packedBase();
    }

    /** A lone port's counters, in a registry of their own: for a port outside any switch (tests, stand-ins). */
    public static PortCounters standalone(final int port) {
        return new PortCounters(CounterRegistry.inMemory(COUNTERS), port, "port " + port);
    }

    private static List<CounterName> names(final int port) {
        final List<CounterName> names = new ArrayList<>(COUNTERS);
        names.add(CounterName.of(CounterType.RX_PACKETS, port));
        names.add(CounterName.of(CounterType.RX_BYTES, port));
        names.add(CounterName.of(CounterType.TX_PACKETS, port));
        names.add(CounterName.of(CounterType.TX_BYTES, port));
        names.add(CounterName.of(CounterType.TX_TRIM_PACKETS, port));
        names.add(CounterName.of(CounterType.DROPPED_TRIM_PACKETS, port));
        names.add(CounterName.of(CounterType.UNTRIMMABLE_IPV6_PACKETS, port));
        names.add(CounterName.of(CounterType.OVERSIZE_CONTROL_PACKETS, port));
        for (int kind = 0; kind < TrimKind.COUNT; kind++) {
            names.add(trimName(port, kind));
        }
        for (final DropReason reason : REASONS) {
            names.add(reason.at(port));
        }
        return names;
    }

    private static CounterName trimName(final int port, final int kind) {
        return new CounterName(CounterType.TRIM_PACKETS, port, kind, TrimKind.name(kind));
    }

    private static int slot(final CounterName name) {
        final int slot = LAYOUT.indexOf(name);
        if (slot < 0) {
            throw new IllegalStateException("no counter " + name + " in a port's layout");
        }
        return slot;
    }

    /** The registry these counters live in. */
    public CounterRegistry registry() {
        return counters.registry();
    }

    /** A frame came in on this port. */
    public void received(final int bytes) {
        if (packed != 0) {
            addPacked(RX_PACKETS, 1);
            addPacked(RX_BYTES, bytes);
            return;
        }
        counters.increment(RX_PACKETS);
        counters.add(RX_BYTES, bytes);
    }

    private void addPacked(final int index, final long delta) {
        final long at = packed + (long) index * Long.BYTES;
        UnsafeApi.putLong(null, at, UnsafeApi.getLong(null, at) + delta);
    }

    /** An IPv6 packet came in whose headers end behind an extension header the switch does not step over. */
    public void receivedUntrimmableIpv6() {
        counters.increment(UNTRIMMABLE_IPV6);
    }

    /** A packet came in whose flags or DSCP say header, but too long for one: it goes on as data. */
    public void receivedOversizeControl() {
        counters.increment(OVERSIZE_CONTROL);
    }

    /** A frame left by this port; {@code trimmed}: it was cut to its header. */
    public void transmitted(final int bytes, final boolean trimmed) {
        if (packed != 0) {
            addPacked(TX_PACKETS, 1);
            addPacked(TX_BYTES, bytes);
            if (trimmed) {
                addPacked(TX_TRIM_PACKETS, 1);
            }
            return;
        }
        counters.increment(TX_PACKETS);
        counters.add(TX_BYTES, bytes);
        if (trimmed) {
            counters.increment(TX_TRIM_PACKETS);
        }
    }

    /**
     * A frame counted as transmitted that the port's link then refused (down, busy, too long for its MTU): it is counted
     * out of what was sent again, and the link counts it, once, under its reason; a header among them is a dropped trimmed
     * packet. The same writer as {@link #transmitted}: the port's egress thread.
     */
    public void transmissionRefused(final int bytes, final boolean trimmed) {
        counters.add(TX_PACKETS, -1);
        counters.add(TX_BYTES, -bytes);
        if (trimmed) {
            counters.add(TX_TRIM_PACKETS, -1);
            counters.increment(DROPPED_TRIM_PACKETS);
        }
    }

    /** A packet towards this port was cut to its header, where {@code kind} says. */
    public void trimmed(final int kind) {
        counters.increment(TRIM_PACKETS[kind]);
    }

    /** A packet already cut to its header was dropped on its way to this port. */
    public void droppedTrimmed() {
        counters.increment(DROPPED_TRIM_PACKETS);
    }

    /** A packet towards this port dropped for {@code reason}, one the components count ({@link DropReason#countedByComponents}). */
    public void dropped(final DropReason reason) {
        counters.increment(DROPS[reason.ordinal()]);
    }

    public long rxPackets() {
        return counters.get(RX_PACKETS);
    }

    public long rxBytes() {
        return counters.get(RX_BYTES);
    }

    public long txPackets() {
        return counters.get(TX_PACKETS);
    }

    public long txBytes() {
        return counters.get(TX_BYTES);
    }

    /** IPv6 packets received that no rule could trim: their transport sits behind an unknown extension header. */
    public long untrimmableIpv6() {
        return counters.get(UNTRIMMABLE_IPV6);
    }

    /** Packets received that claimed to be headers but were too long for one, and went on as data. */
    public long oversizeControl() {
        return counters.get(OVERSIZE_CONTROL);
    }

    public long txTrimPackets() {
        return counters.get(TX_TRIM_PACKETS);
    }

    public long droppedTrimPackets() {
        return counters.get(DROPPED_TRIM_PACKETS);
    }

    /** Packets towards this port that were cut to their header where {@code kind} says. */
    public long trimPackets(final int kind) {
        return counters.get(TRIM_PACKETS[kind]);
    }

    public long trimPacketsTotal() {
        long total = 0;
        for (int kind = 0; kind < TrimKind.COUNT; kind++) {
            total += trimPackets(kind);
        }
        return total;
    }

    /** Packets towards this port dropped for {@code reason}: 0 for a live port's reason, which these counters do not count. */
    public long drops(final DropReason reason) {
        final int slot = DROPS[reason.ordinal()];
        return slot == NONE ? 0 : counters.get(slot);
    }

    /** Adds {@code other}'s counts into these, which the caller alone writes: a port's totals over its threads. */
    public void add(final PortCounters other) {
        for (int index = 0; index < counters.count(); index++) {
            counters.add(index, other.counters.get(index));
        }
    }

    /** Only while nothing counts. */
    public void reset() {
        counters.reset();
    }
}
