package io.trimswitch.realtime.shard;

/**
 * A switch time one shard publishes and others read, on a cache line of its own: its writer stores it after what it
 * stands for (packets on rings, NOTIFYs in inboxes), so a reader that reads it first and drains its rings after sees
 * everything it promises. Padded so that its writes do not evict the fields around it from other cores.
 */
public final class PublishedTime {
    @SuppressWarnings("unused")
    private long p1, p2, p3, p4, p5, p6, p7;
    private volatile long time;
    @SuppressWarnings("unused")
    private long q1, q2, q3, q4, q5, q6, q7;

    public PublishedTime(final long initial) {
        this.time = initial;
    }

    public long get() {
        return time;
    }

    /** On its one writer's thread. */
    public void set(final long value) {
        time = value;
    }
}
