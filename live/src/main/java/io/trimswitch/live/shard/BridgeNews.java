package io.trimswitch.live.shard;

import io.trimswitch.pipelines.BridgeForwarding;
import io.trimswitch.pipelines.LearningBridge;
import io.trimswitch.realtime.shard.CommandQueue;
import org.agrona.collections.Long2LongHashMap;

/**
 * What the pipeline threads of a bridging live switch learn from each other, as a Tofino's pipelines learn through its
 * control plane: each shard keeps its own copy of the learning bridge, written on its thread alone, and tells every other
 * shard what it learned, a MAC and its port, as a command on that shard's queue, which carries it out before its next
 * frame. An address still in use is told again every half aging time, so the other copies do not forget it while only
 * one thread sees its frames. News that finds {@link CommandQueue#MOST_NEWS} waiting is lost; the other shards flood to
 * that address until it is told again.
 */
public final class BridgeNews implements BridgeForwarding.Listener {
    private static final long NEVER = Long.MIN_VALUE;

    private final BridgeForwarding forwarding;
    /** Per shard, its command queue; this one's own is never told. */
    private final CommandQueue[] queues;
    private final int self;
    private final LearningBridge bridge;
    private final long repeatNanos;
    /**
     * When each address was last passed on, for as many addresses as the bridge holds: sized whole at the start, and
     * forgotten all at once when full (a host sending from ever new addresses), which only makes some news come again.
     */
    private final Long2LongHashMap lastTold;

    private BridgeNews(final BridgeForwarding forwarding, final CommandQueue[] queues, final int self, final long agingNanos) {
        this.forwarding = forwarding;
        this.queues = queues;
        this.self = self;
        this.bridge = forwarding.bridge(self);
        this.repeatNanos = agingNanos / 2;
        this.lastTold = new Long2LongHashMap((int) Math.ceil((bridge.capacity() + 1) / 0.6f) + 1, 0.6f, NEVER);
    }

    /** Each shard's copy of {@code forwarding}'s bridge tells the shards of {@code queues} (one each, in order) its news. */
    public static void between(final BridgeForwarding forwarding, final CommandQueue[] queues, final long agingNanos) {
        for (int shard = 0; shard < queues.length && queues.length > 1; shard++) {
            forwarding.listener(shard, new BridgeNews(forwarding, queues.clone(), shard, agingNanos));
        }
    }

    /** This shard saw a frame from {@code mac} on {@code port}; {@code changed} when its bridge called it news. */
    @Override
    public void learned(final long mac, final int port, final long now, final boolean changed) {
        final long told = lastTold.get(mac);
        if (!changed && told != NEVER && now - told < repeatNanos) {
            return;
        }
        if (told == NEVER && lastTold.size() >= bridge.capacity()) {
            lastTold.clear();
        }
        lastTold.put(mac, now);
        for (int shard = 0; shard < queues.length; shard++) {
            if (shard != self) {
                queues[shard].tell(new Learn(forwarding.bridge(shard), mac, port, now));
            }
        }
    }

    /** On the told shard's thread: its copy learns that {@code mac} is behind {@code port}, as of {@code nanos}. */
    record Learn(LearningBridge bridge, long mac, int port, long nanos) implements CommandQueue.News {
        @Override
        public void carryOut() {
            bridge.learn(mac, port, nanos);
        }
    }
}
