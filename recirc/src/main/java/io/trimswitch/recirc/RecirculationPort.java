package io.trimswitch.recirc;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimKind;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.dataplane.util.TimedIntFifo;
import io.trimswitch.trafficmanager.HandleQueue;
import io.trimswitch.trafficmanager.TrafficManager;

/**
 * A pipeline's recirculation port. In DoD mode it drains the pipeline's DoD queue at its rate,
 * serialising each deflected packet whole, raises the congestion signal as each one leaves the
 * queue, and after the recirculation latency trims it and puts the header in the egress port's
 * header queue. In mirror mode it carries already-trimmed headers and raises nothing. It owns its timing,
 * whichever clock drives it: {@link #advanceTo} ends what is due and starts what follows, {@link #nextDue} says when
 * next; virtual time wakes it at that instant and as its queue gets a packet, a shard once a turn.
 */
public final class RecirculationPort {
    private final int pipeline;
    private final HandleQueue queue;
    private final LinkRate rate;
    private final long latencyPicos;
    private final PacketPool pool;
    private final TrafficManager trafficManager;
    private final CongestionSignals signals;
    private final TimedIntFifo looping = new TimedIntFifo(1024);
    private int inService = PacketPool.NO_PACKET;
    private long busyUntil;
    private long lastLoopBack;

    /**
     * @param signals null when this port raises no congestion signal (the {@code dod} mechanism, mirror ports)
     */
    public RecirculationPort(
        final int pipeline, final HandleQueue queue, final LinkRate rate, final long latencyPicos,
        final TrafficManager trafficManager, final CongestionSignals signals) {
        this.pipeline = pipeline;
        this.queue = queue;
        this.rate = rate;
        this.latencyPicos = latencyPicos;
        this.pool = trafficManager.pool();
        this.trafficManager = trafficManager;
        this.signals = signals;
    }

    public boolean isIdle() {
        return inService == PacketPool.NO_PACKET;
    }

    /**
     * Ends every transmission done by {@code now}, each packet setting off on its loop at the instant it ended, and
     * starts each next one: back to back while the queue holds packets, otherwise from the instant the packet was
     * queued; a packet that cannot end by {@code now} stays in service. Returns how many ended.
     */
    public int advanceTo(final long now) {
        int ended = 0;
        while (true) {
            if (inService != PacketPool.NO_PACKET) {
                if (now < busyUntil) {
                    return ended;
                }
                lastLoopBack = finishTransmission(busyUntil);
                ended++;
            }
            final int next = queue.peek();
            if (next == PacketPool.NO_PACKET) {
                return ended;
            }
            // Virtual time looks as each packet is queued and as each transmission ends: then that is its own instant.
            final long start = Math.max(busyUntil, pool.queuedPicos(next));
            if (start > now) {
                return ended;
            }
            final long done = startTransmission(start);
            if (done < 0) {
                return ended;
            }
            busyUntil = done;
        }
    }

    /** When the packet in service ends, or {@link Long#MAX_VALUE} when none is. */
    public long nextDue() {
        return inService == PacketPool.NO_PACKET ? Long.MAX_VALUE : busyUntil;
    }

    /** When the packet that last set off on its loop is back in the ingress pipeline. */
    public long lastLoopBack() {
        return lastLoopBack;
    }

    /** Starts serialising the next queued packet; returns when it finishes, or -1 when the queue is empty. */
    public long startTransmission(final long now) {
        final int handle = queue.poll();
        if (handle == PacketPool.NO_PACKET) {
            return -1;
        }
        inService = handle;
        if (signals != null) {
            // The deflected packet was stamped when it entered the DoD queue: its wait is the signal's age.
            signals.onDeflectedDequeue(pool.egressPort(handle), pipeline, queue.size(), now - pool.queuedPicos(handle), now);
        }
        return now + rate.serialisation(pool.length(handle));
    }

    /** The packet in service has left the port; returns when it is back in the ingress pipeline. */
    public long finishTransmission(final long now) {
        final long back = now + latencyPicos;
        looping.add(back, inService);
        inService = PacketPool.NO_PACKET;
        return back;
    }

    /** Brings back every packet whose loop ends by {@code now}, trimmed, into its header queue. */
    public int returnDue(final long now) {
        int returned = 0;
        while (!looping.isEmpty() && looping.headTime() <= now) {
            // Back in the pipeline when its loop ended, even if a real-time thread looks a little later.
            final long back = looping.headTime();
            final int handle = looping.removeHead();
            if (pool.trimKind(handle) == TrimKind.NONE) {
                trafficManager.trim(handle, TrimKind.DOD);
            }
            trafficManager.enqueueHeader(handle, back);
            returned++;
        }
        return returned;
    }

    public HandleQueue queue() {
        return queue;
    }

    /** Nothing queued, in service or looping: on the owning thread only (the queue may be read from anywhere). */
    public boolean isEmpty() {
        return inService == PacketPool.NO_PACKET && looping.isEmpty() && queue.isEmpty();
    }

    public void reset() {
        looping.clear();
        inService = PacketPool.NO_PACKET;
        busyUntil = 0;
        lastLoopBack = 0;
    }

    /** Hands every packet still in service or in the loop to {@code drain}, for end-of-run accounting. */
    public void drainTo(final java.util.function.IntConsumer drain) {
        if (inService != PacketPool.NO_PACKET) {
            drain.accept(inService);
            inService = PacketPool.NO_PACKET;
        }
        while (!looping.isEmpty()) {
            drain.accept(looping.removeHead());
        }
        for (int handle = queue.poll(); handle != PacketPool.NO_PACKET; handle = queue.poll()) {
            drain.accept(handle);
        }
    }
}
