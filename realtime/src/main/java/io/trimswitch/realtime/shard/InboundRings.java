package io.trimswitch.realtime.shard;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimKind;
import io.trimswitch.switching.CatchUp;
import io.trimswitch.trafficmanager.TrafficManager;

import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * The rings other shards hand one shard packets on for its ports: one ring of its own in a live switch, one per shard
 * into the traffic manager's shard when the shards keep one order (none with one shard). Each packet is queued at the
 * instant it reached the traffic manager, as it would have been on one thread.
 */
final class InboundRings {
    private final PacketPool pool;
    private final PortHandoff[] rings;
    /** Per ring, the entry at its head, taken but not yet queued; {@link PacketPool#NO_PACKET}: none. */
    private final int[] heads;
    /** The traffic manager's view this shard queues handed-over packets through, or null. */
    private final TrafficManager handedOver;

    InboundRings(final PacketPool pool, final PortHandoff[] rings, final TrafficManager handedOver) {
        this.pool = pool;
        this.rings = rings;
        this.heads = new int[rings.length];
        this.handedOver = handedOver;
        Arrays.fill(heads, PacketPool.NO_PACKET);
    }

    /** Packets handed over and not yet queued; safe to ask from any thread. */
    boolean hasAny() {
        for (int ring = 0; ring < rings.length; ring++) {
            if (heads[ring] != PacketPool.NO_PACKET || !rings[ring].isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** As they come: queues everything on the rings, bringing {@code catchUp} up to each first; returns how many. */
    int queueAll(final CatchUp catchUp) {
        int work = 0;
        for (final PortHandoff ring : rings) {
            for (int entry = ring.poll(); entry != PacketPool.NO_PACKET; entry = ring.poll()) {
                queue(entry, catchUp);
                work++;
            }
        }
        return work;
    }

    /** The ring whose head packet reached the traffic manager first, before {@code bound}; else -1. */
    int next(final long bound) {
        int next = -1;
        long nextTime = bound;
        long nextOrder = Long.MAX_VALUE;
        for (int ring = 0; ring < rings.length; ring++) {
            if (heads[ring] == PacketPool.NO_PACKET) {
                heads[ring] = rings[ring].poll();
                if (heads[ring] == PacketPool.NO_PACKET) {
                    continue;
                }
            }
            final int handle = PortHandoff.handle(heads[ring]);
            final long time = pool.queuedPicos(handle);
            if (time < nextTime || time == nextTime && next >= 0 && pool.arrivalOrder(handle) < nextOrder) {
                next = ring;
                nextTime = time;
                nextOrder = pool.arrivalOrder(handle);
            }
        }
        return next;
    }

    /** Takes the head entry of ring {@code ring}, which {@link #next} found. */
    int take(final int ring) {
        final int entry = heads[ring];
        heads[ring] = PacketPool.NO_PACKET;
        return entry;
    }

    /** Queues a packet another shard handed over at the instant it reached the traffic manager, as it would have been. */
    void queue(final int entry, final CatchUp catchUp) {
        final int handle = PortHandoff.handle(entry);
        final long time = pool.queuedPicos(handle);
        catchUp.advanceTo(CatchUp.horizon(time, true));
        // A trimmed packet is a header, whichever queue of the stand-in took it (a data queue can hold trimmed packets).
        if (PortHandoff.isHeader(entry) || pool.trimKind(handle) != TrimKind.NONE) {
            handedOver.enqueueHeader(handle, time);
        } else {
            handedOver.enqueueData(handle, time);
        }
    }

    /** Once stopped: every packet handed over and not queued, to {@code inFlight}. */
    void drainTo(final IntConsumer inFlight) {
        for (int ring = 0; ring < rings.length; ring++) {
            if (heads[ring] != PacketPool.NO_PACKET) {
                inFlight.accept(PortHandoff.handle(heads[ring]));
                heads[ring] = PacketPool.NO_PACKET;
            }
            for (int entry = rings[ring].poll(); entry != PacketPool.NO_PACKET; entry = rings[ring].poll()) {
                inFlight.accept(PortHandoff.handle(entry));
            }
        }
    }

    void reset() {
        Arrays.fill(heads, PacketPool.NO_PACKET);
    }
}
