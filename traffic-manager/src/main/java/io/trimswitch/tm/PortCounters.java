package io.trimswitch.tm;

import io.trimswitch.dataplane.packet.DropReason;
import io.trimswitch.dataplane.packet.TrimKind;

/**
 * A port's counters, named after SAI's (SAI_PORT_STAT_TRIM_PACKETS, ..._TX_TRIM_PACKETS,
 * ..._DROPPED_TRIM_PACKETS) plus the usual rx/tx and drops by reason. Each field has one writer: rx
 * fields the port's ingress pipeline, tx fields its egress, trims and drops whoever trimmed or dropped
 * in that runtime's single thread.
 */
public final class PortCounters {
    public long rxPackets;
    public long rxBytes;
    public long txPackets;
    public long txBytes;
    /** Packets towards this port that were cut to their header, by where they were cut. */
    public final long[] trimPackets = new long[TrimKind.COUNT];
    public long txTrimPackets;
    public long droppedTrimPackets;
    public final long[] drops = new long[DropReason.values().length];

    public long trimPacketsTotal() {
        long total = 0;
        for (final long count : trimPackets) {
            total += count;
        }
        return total;
    }

    /** Adds {@code other}'s counts: a port's totals over the threads that counted for it. */
    public void add(final PortCounters other) {
        rxPackets += other.rxPackets;
        rxBytes += other.rxBytes;
        txPackets += other.txPackets;
        txBytes += other.txBytes;
        for (int kind = 0; kind < trimPackets.length; kind++) {
            trimPackets[kind] += other.trimPackets[kind];
        }
        txTrimPackets += other.txTrimPackets;
        droppedTrimPackets += other.droppedTrimPackets;
        for (int reason = 0; reason < drops.length; reason++) {
            drops[reason] += other.drops[reason];
        }
    }

    public void reset() {
        rxPackets = 0;
        rxBytes = 0;
        txPackets = 0;
        txBytes = 0;
        java.util.Arrays.fill(trimPackets, 0);
        txTrimPackets = 0;
        droppedTrimPackets = 0;
        java.util.Arrays.fill(drops, 0);
    }
}
