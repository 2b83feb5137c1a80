package io.trimswitch.realtime.shard;

/**
 * Where a shard's thread sleeps between turns: in the kernel, over its ports' file descriptors (the live switch), or
 * parked (ports in memory, which no descriptor signals).
 */
public interface ShardSleep {
    /** Sleeps up to {@code nanos} host nanoseconds ({@link PipelineShard#UNTIL_WOKEN}: until woken) unless woken first. */
    void await(long nanos);

    /** From any thread: ends an {@link #await} now, or makes the next one return at once. */
    void wake();

    /** Where the port kinds' descriptors go; a sleep without the kernel refuses them. */
    FileDescriptorWatch watch();

    /** Once the shard's thread has ended. */
    default void close() {
    }

    /**
     * A sleep without the kernel, for ports in memory: parked at most a millisecond at a time, since nothing but a
     * {@link #wake()} would end it.
     */
    static ShardSleep parked() {
        return new ParkedSleep();
    }
}
