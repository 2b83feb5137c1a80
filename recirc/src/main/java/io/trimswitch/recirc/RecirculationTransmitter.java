package io.trimswitch.recirc;

import io.trimswitch.dataplane.packet.PacketPool;

/**
 * When a recirculation port's next packet leaves for its loop, whichever clock drives it: back to back while its queue
 * holds packets, otherwise from the instant the packet was queued. The engine says only how it is woken: virtual time
 * at {@link #nextDue()} or as the port's queue gets a packet, a real-time shard once a turn, however late. The loop's
 * returns are the port's ({@link RecirculationPort#returnDue}), due at {@link #lastLoopBack()} for the latest packet.
 */
public final class RecirculationTransmitter {
    private final RecirculationPort port;
    private final PacketPool pool;
    private long busyUntil;
    private long lastLoopBack;

    public RecirculationTransmitter(final RecirculationPort port, final PacketPool pool) {
        this.port = port;
        this.pool = pool;
    }

    /**
     * Ends every transmission done by {@code now}, each packet setting off on its loop at the instant it ended, and
     * starts each next one; a packet that cannot end by {@code now} stays in service. Returns how many ended.
     */
    public int advanceTo(final long now) {
        int ended = 0;
        while (true) {
            if (!port.isIdle()) {
                if (now < busyUntil) {
                    return ended;
                }
                lastLoopBack = port.finishTransmission(busyUntil);
                ended++;
            }
            final int next = port.queue().peek();
            if (next == PacketPool.NO_PACKET) {
                return ended;
            }
            // The instant the port and the packet were both there: in virtual time, which looks as the packet is
            // queued and as each transmission ends, that is always the look's own instant.
            final long start = Math.max(busyUntil, pool.queuedPicos(next));
            if (start > now) {
                return ended;
            }
            final long done = port.startTransmission(start);
            if (done < 0) {
                return ended;
            }
            busyUntil = done;
        }
    }

    /** When the packet in service ends, or {@link Long#MAX_VALUE} when none is. */
    public long nextDue() {
        return port.isIdle() ? Long.MAX_VALUE : busyUntil;
    }

    /** When the packet that last set off on its loop is back in the ingress pipeline. */
    public long lastLoopBack() {
        return lastLoopBack;
    }

    public RecirculationPort port() {
        return port;
    }

    public void reset() {
        busyUntil = 0;
        lastLoopBack = 0;
    }
}
