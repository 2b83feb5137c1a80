package io.trimswitch.interfaces;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * One thread's way from the wall clock the kernel stamps AF_PACKET frames with (CLOCK_REALTIME) to the host clock the
 * switch runs on (CLOCK_MONOTONIC, System.nanoTime's): the distance between the two, read once per turn
 * ({@link #sample()}) into a timespec of its own, so that converting a frame's stamp allocates nothing.
 */
public final class KernelClocks {
    private static final int CLOCK_REALTIME = 0;
    private static final int CLOCK_MONOTONIC = 1;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    /** A vDSO call that neither blocks nor calls back: no thread-state change around it. */
    private static final MethodHandle CLOCK_GETTIME = Linker.nativeLinker().downcallHandle(
        Linker.nativeLinker().defaultLookup().find("clock_gettime").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS), Linker.Option.critical(false));

    /** struct timespec: seconds, then nanoseconds. */
    private final MemorySegment timespec;
    /** How far CLOCK_REALTIME was ahead of CLOCK_MONOTONIC at the last sample, in nanoseconds. */
    private long realtimeAheadNanos;

    public KernelClocks(final Arena arena) {
        this.timespec = arena.allocate(16, 8);
    }

    /** Reads how far the wall clock is ahead of the monotonic one now: it moves only when the wall clock is set or slewed. */
    public void sample() {
        final long before = read(CLOCK_MONOTONIC);
        final long realtime = read(CLOCK_REALTIME);
        final long after = read(CLOCK_MONOTONIC);
        realtimeAheadNanos = realtime - (before + (after - before) / 2);
    }

    /** CLOCK_MONOTONIC nanoseconds at the instant the wall clock read {@code seconds} and {@code nanos}, as last sampled. */
    public long monotonicAt(final long seconds, final long nanos) {
        return monotonicAt(seconds, nanos, realtimeAheadNanos);
    }

    static long monotonicAt(final long seconds, final long nanos, final long realtimeAheadNanos) {
        return seconds * NANOS_PER_SECOND + nanos - realtimeAheadNanos;
    }

    private long read(final int clock) {
        try {
            final int ignored = (int) CLOCK_GETTIME.invokeExact(clock, timespec);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
        return timespec.get(ValueLayout.JAVA_LONG, 0) * NANOS_PER_SECOND + timespec.get(ValueLayout.JAVA_LONG, 8);
    }
}
