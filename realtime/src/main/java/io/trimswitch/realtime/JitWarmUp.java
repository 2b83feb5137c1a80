package io.trimswitch.realtime;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * Runs a real-time workload unmeasured until the JIT has finished compiling the dataplane. One run is not enough: a
 * short run ends while the optimising compiler still has methods queued, and the measured run then races the clock
 * half interpreted (at dilation 200, 16 × 4:1 incasts sent half their packets). So the workload runs again while a
 * run still made the JIT compile, and then the compiler is given time to empty its queue.
 */
final class JitWarmUp {
    /** Runs at most: a JIT that never settles (another busy JVM, a tiny heap) must not hold the run for ever. */
    static final int MAX_RUNS = 8;
    /** Compile time a run may add and still count as settled: the odd late method, not the dataplane. */
    private static final long SETTLED_MILLIS = 5;
    private static final long QUIET_POLL_MILLIS = 20;
    private static final long QUIET_WAIT_MILLIS = 2_000;

    private JitWarmUp() {
    }

    /** Runs {@code run} until one run compiles (almost) nothing, at most {@link #MAX_RUNS} times; returns how many runs. */
    static int until(final Runnable run) {
        final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            run.run();
            return 1;
        }
        int runs = 0;
        long before = jit.getTotalCompilationTime();
        while (runs < MAX_RUNS) {
            run.run();
            runs++;
            final long after = awaitQuiet(jit);
            if (after - before <= SETTLED_MILLIS) {
                break;
            }
            before = after;
        }
        return runs;
    }

    /** Waits until the compiler has had nothing to do for a poll, at most a couple of seconds; returns its total time. */
    private static long awaitQuiet(final CompilationMXBean jit) {
        long last = jit.getTotalCompilationTime();
        final long deadline = System.nanoTime() + QUIET_WAIT_MILLIS * 1_000_000;
        while (System.nanoTime() < deadline) {
            try {
                Thread.sleep(QUIET_POLL_MILLIS);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                return last;
            }
            final long now = jit.getTotalCompilationTime();
            if (now == last) {
                return now;
            }
            last = now;
        }
        return last;
    }
}
