package io.trimswitch.live;

import io.trimswitch.pipelines.BridgeForwarding;
import io.trimswitch.pipelines.LearningBridge;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteBuffer;

/**
 * What the pipeline threads of a bridging live switch tell each other: each keeps its own copy of the
 * learning bridge (one writer each) and passes on what it learned, a MAC and its port, through a
 * lock-free inbox per thread. An address still in use is passed on again every half aging time, so the
 * other copies do not forget it while only one thread sees its frames. A full inbox loses the news; the
 * other threads flood to that address until it is told again.
 */
final class BridgeNews implements MessageHandler, BridgeForwarding.Listener {
    private static final int INBOX_BYTES = 1 << 16;
    private static final int MESSAGE = 1;
    private static final long NEVER = Long.MIN_VALUE;

    private final ManyToOneRingBuffer[] inboxes;
    private final int self;
    private final LearningBridge bridge;
    private final long repeatNanos;
    /**
     * When each address was last passed on, for as many addresses as the bridge holds: sized whole at the start, and
     * forgotten all at once when full (a host sending from ever new addresses), which only makes some news come again.
     */
    private final Long2LongHashMap lastTold;
    private final UnsafeBuffer message = new UnsafeBuffer(new byte[Long.BYTES + Integer.BYTES]);
    private long nowNanos;

    private BridgeNews(final ManyToOneRingBuffer[] inboxes, final int self, final LearningBridge bridge, final long agingNanos) {
        this.inboxes = inboxes;
        this.self = self;
        this.bridge = bridge;
        this.repeatNanos = agingNanos / 2;
        this.lastTold = new Long2LongHashMap((int) Math.ceil((bridge.capacity() + 1) / 0.6f) + 1, 0.6f, NEVER);
    }

    /** One per thread, each with its own copy of {@code forwarding}'s bridge, and each made the listener of that copy. */
    static BridgeNews[] between(final BridgeForwarding forwarding, final long agingNanos) {
        final LearningBridge[] bridges = new LearningBridge[forwarding.shards()];
        for (int thread = 0; thread < bridges.length; thread++) {
            bridges[thread] = forwarding.bridge(thread);
        }
        final ManyToOneRingBuffer[] inboxes = new ManyToOneRingBuffer[bridges.length];
        for (int thread = 0; thread < inboxes.length; thread++) {
            inboxes[thread] = new ManyToOneRingBuffer(
                new UnsafeBuffer(ByteBuffer.allocateDirect(INBOX_BYTES + RingBufferDescriptor.TRAILER_LENGTH)));
        }
        final BridgeNews[] news = new BridgeNews[bridges.length];
        for (int thread = 0; thread < news.length; thread++) {
            news[thread] = new BridgeNews(inboxes, thread, bridges[thread], agingNanos);
            forwarding.listener(thread, news[thread]);
        }
        return news;
    }

    /** This thread saw a frame from {@code mac} on {@code port}; {@code changed} when its bridge called it news. */
    @Override
    public void learned(final long mac, final int port, final long now, final boolean changed) {
        if (inboxes.length == 1) {
            return;
        }
        final long told = lastTold.get(mac);
        if (!changed && told != NEVER && now - told < repeatNanos) {
            return;
        }
        if (told == NEVER && lastTold.size() >= bridge.capacity()) {
            lastTold.clear();
        }
        lastTold.put(mac, now);
        message.putLong(0, mac);
        message.putInt(Long.BYTES, port);
        for (int thread = 0; thread < inboxes.length; thread++) {
            if (thread != self) {
                inboxes[thread].write(MESSAGE, message, 0, message.capacity());
            }
        }
    }

    /** Before each lookup: this thread's copy learns what the others have passed on, so that it floods no known address. */
    @Override
    public void hearOthers(final long now) {
        drain(now);
    }

    /** Learns what the other threads have passed on; returns how many addresses. */
    int drain(final long now) {
        nowNanos = now;
        return inboxes.length == 1 ? 0 : inboxes[self].read(this);
    }

    @Override
    public void onMessage(final int type, final MutableDirectBuffer buffer, final int index, final int length) {
        bridge.learn(buffer.getLong(index), buffer.getInt(index + Long.BYTES), nowNanos);
    }
}
