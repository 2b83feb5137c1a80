package io.trimswitch.realtime.shard;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.recirc.RecirculationPort;
import io.trimswitch.switching.CatchUp;
import io.trimswitch.trafficmanager.HandleQueue;

/**
 * A pipeline's recirculation port on a thread: it drains the pipeline's DoD (or mirror) ring at the
 * port's rate, raising the congestion signal as each deflected packet leaves the ring, and after the
 * recirculation latency trims it into its egress port's header ring.
 */
final class RecirculationStage implements CatchUp.Stage {
    private final RecirculationPort port;
    private final PacketPool pool;
    private long busyUntil;

    RecirculationStage(final RecirculationPort port, final PacketPool pool) {
        this.port = port;
        this.pool = pool;
    }

    /** Does everything due by switch time {@code now}; returns how much. */
    @Override
    public int advanceTo(final long now) {
        int work = 0;
        while (true) {
            if (!port.isIdle()) {
                if (now < busyUntil) {
                    break;
                }
                port.finishTransmission(busyUntil);
                work++;
            }
            final HandleQueue queue = port.queue();
            final int next = queue.peek();
            if (next == PacketPool.NO_PACKET) {
                break;
            }
            // Back to back while the queue holds packets; otherwise from the moment the packet was queued,
            // once the runtime has reached it.
            final long start = Math.max(busyUntil, pool.queuedPicos(next));
            if (start > now) {
                break;
            }
            final long done = port.startTransmission(start);
            if (done < 0) {
                break;
            }
            busyUntil = done;
        }
        return work + port.returnDue(now);
    }

    void reset() {
        busyUntil = 0;
    }

    /** Nothing queued, in service or looping; on this stage's shard's thread only. */
    boolean isEmpty() {
        return port.isEmpty();
    }

    /** Nothing queued for the port: safe to ask from any thread. */
    boolean queueIsEmpty() {
        return port.queue().isEmpty();
    }

}
