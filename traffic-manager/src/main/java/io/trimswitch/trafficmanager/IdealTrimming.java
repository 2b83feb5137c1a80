package io.trimswitch.trafficmanager;

import io.trimswitch.dataplane.packet.PacketClass;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimKind;

import java.util.SplittableRandom;

/**
 * Output-queued trimming, the ideal the hardware approximates: a full data queue trims at enqueue,
 * straight into the header queue. Which packet is trimmed is a coin flip between the arriving one
 * and the one at the queue's tail (NDP's and htsim's way of breaking phase effects), seeded.
 */
public final class IdealTrimming implements DataQueueOverflow {
    private final long seed;
    private SplittableRandom coin;

    public IdealTrimming(final long seed) {
        this.seed = seed;
        this.coin = new SplittableRandom(seed);
    }

    @Override
    public void onDataQueueFull(final TrafficManager trafficManager, final int handle, final EgressPort port, final long now) {
        int victim = handle;
        if (coin.nextBoolean()) {
            // Taking back the tail needs the queue's only thread: ideal trimming is a virtual-time model.
            final PacketFifo dataQueue = (PacketFifo) port.dataQueue(PacketClass.queue(trafficManager.pool().classification(handle)));
            final int tail = dataQueue.removeTail();
            if (tail != PacketPool.NO_PACKET && PacketClass.isTrimmable(trafficManager.pool().classification(tail))) {
                dataQueue.offer(handle);
                victim = tail;
            } else if (tail != PacketPool.NO_PACKET) {
                dataQueue.offer(tail);
            }
        }
        trafficManager.trim(victim, TrimKind.IDEAL);
        trafficManager.enqueueHeader(victim, now);
    }

    @Override
    public HandleQueue recirculationQueue(final int pipeline) {
        return null;
    }

    @Override
    public void reset() {
        coin = new SplittableRandom(seed);
    }
}
