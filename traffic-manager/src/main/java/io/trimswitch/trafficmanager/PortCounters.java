package io.trimswitch.trafficmanager;

import io.trimswitch.dataplane.counters.CounterBlock;
import io.trimswitch.dataplane.counters.CounterName;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.TrimKind;

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

    private final CounterBlock counters;
    // Each counter's place in the block, found by its name once: counting indexes it and allocates nothing.
    private final int rxPackets;
    private final int rxBytes;
    private final int txPackets;
    private final int txBytes;
    private final int txTrimPackets;
    private final int droppedTrimPackets;
    private final int untrimmableIpv6;
    private final int oversizeControl;
    private final int[] trimPackets = new int[TrimKind.COUNT];
    /** By reason: its counter's place, or NONE for a live port's reason. */
    private final int[] drops = new int[DropReason.values().length];

    /** Port {@code port}'s counters that {@code writer} (a thread or component, for the labels) writes, in {@code registry}. */
    public PortCounters(final CounterRegistry registry, final int port, final String writer) {
        this.counters = registry.block(writer, names(port));
        this.rxPackets = slot(CounterType.RX_PACKETS, port);
        this.rxBytes = slot(CounterType.RX_BYTES, port);
        this.txPackets = slot(CounterType.TX_PACKETS, port);
        this.txBytes = slot(CounterType.TX_BYTES, port);
        this.txTrimPackets = slot(CounterType.TX_TRIM_PACKETS, port);
        this.droppedTrimPackets = slot(CounterType.DROPPED_TRIM_PACKETS, port);
        this.untrimmableIpv6 = slot(CounterType.UNTRIMMABLE_IPV6_PACKETS, port);
        this.oversizeControl = slot(CounterType.OVERSIZE_CONTROL_PACKETS, port);
        for (int kind = 0; kind < TrimKind.COUNT; kind++) {
            trimPackets[kind] = counters.indexOf(trimName(port, kind));
        }
        java.util.Arrays.fill(drops, NONE);
        for (final DropReason reason : REASONS) {
            drops[reason.ordinal()] = counters.indexOf(reason.at(port));
        }
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

    private int slot(final CounterType type, final int port) {
        return counters.indexOf(CounterName.of(type, port));
    }

    /** The registry these counters live in. */
    public CounterRegistry registry() {
        return counters.registry();
    }

    /** A frame came in on this port. */
    public void received(final int bytes) {
        counters.increment(rxPackets);
        counters.add(rxBytes, bytes);
    }

    /** An IPv6 packet came in whose headers end behind an extension header the switch does not step over. */
    public void receivedUntrimmableIpv6() {
        counters.increment(untrimmableIpv6);
    }

    /** A packet came in whose flags or DSCP say header, but too long for one: it goes on as data. */
    public void receivedOversizeControl() {
        counters.increment(oversizeControl);
    }

    /** A frame left by this port; {@code trimmed}: it was cut to its header. */
    public void transmitted(final int bytes, final boolean trimmed) {
        counters.increment(txPackets);
        counters.add(txBytes, bytes);
        if (trimmed) {
            counters.increment(txTrimPackets);
        }
    }

    /**
     * A frame counted as transmitted that the port's link then refused (down, busy, too long for its MTU): it is counted
     * out of what was sent again, and the link counts it, once, under its reason; a header among them is a dropped trimmed
     * packet. The same writer as {@link #transmitted}: the port's egress thread.
     */
    public void transmissionRefused(final int bytes, final boolean trimmed) {
        counters.add(txPackets, -1);
        counters.add(txBytes, -bytes);
        if (trimmed) {
            counters.add(txTrimPackets, -1);
            counters.increment(droppedTrimPackets);
        }
    }

    /** A packet towards this port was cut to its header, where {@code kind} says. */
    public void trimmed(final int kind) {
        counters.increment(trimPackets[kind]);
    }

    /** A packet already cut to its header was dropped on its way to this port. */
    public void droppedTrimmed() {
        counters.increment(droppedTrimPackets);
    }

    /** A packet towards this port dropped for {@code reason}, one the components count ({@link DropReason#countedByComponents}). */
    public void dropped(final DropReason reason) {
        counters.increment(drops[reason.ordinal()]);
    }

    public long rxPackets() {
        return counters.get(rxPackets);
    }

    public long rxBytes() {
        return counters.get(rxBytes);
    }

    public long txPackets() {
        return counters.get(txPackets);
    }

    public long txBytes() {
        return counters.get(txBytes);
    }

    /** IPv6 packets received that no rule could trim: their transport sits behind an unknown extension header. */
    public long untrimmableIpv6() {
        return counters.get(untrimmableIpv6);
    }

    /** Packets received that claimed to be headers but were too long for one, and went on as data. */
    public long oversizeControl() {
        return counters.get(oversizeControl);
    }

    public long txTrimPackets() {
        return counters.get(txTrimPackets);
    }

    public long droppedTrimPackets() {
        return counters.get(droppedTrimPackets);
    }

    /** Packets towards this port that were cut to their header where {@code kind} says. */
    public long trimPackets(final int kind) {
        return counters.get(trimPackets[kind]);
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
        final int slot = drops[reason.ordinal()];
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
