package io.trimswitch.realtime.shard;

import java.util.concurrent.locks.LockSupport;

/** {@link ShardSleep#parked()}: the shard's thread parks, and a wake unparks it. */
final class ParkedSleep implements ShardSleep {
    private static final long LONGEST_PARK_NANOS = 1_000_000;

    /** The sleeping thread, once it has slept: whom a wake unparks. */
    private volatile Thread sleeper;

    @Override
    public void await(final long nanos) {
        sleeper = Thread.currentThread();
        LockSupport.parkNanos(Math.min(nanos, LONGEST_PARK_NANOS));
    }

    @Override
    public void wake() {
        final Thread thread = sleeper;
        if (thread != null) {
            LockSupport.unpark(thread);
        }
    }

    @Override
    public FileDescriptorWatch watch() {
        return new FileDescriptorWatch() {
            @Override
            public void add(final int fd, final boolean packetSocket) {
                throw new IllegalStateException("ports in memory sleep on no file descriptor, got fd " + fd);
            }

            @Override
            public void remove(final int fd) {
            }
        };
    }
}
