package io.trimswitch.pipelines;

/**
 * One pipeline's meters for every egress port and the rule that turns their colours and the trim
 * state into "trim" or "queue". Every meter of the egress port runs on every trimmable packet,
 * whatever the state: each one is a virtual output queue that must see all the traffic.
 */
public interface IngressMeters {
    /** Runs the meters of {@code egressPort} on a {@code bytes}-long packet and says whether to trim it. */
    boolean shouldTrim(int egressPort, int state, int bytes, long now);

    void reset();

    /**
     * New rates (bits per second) and burst for {@code egressPort}'s meters, from a running switch's control thread: the
     * port's meters start afresh, full; meters that read queue depths have no rates and ignore it.
     */
    default void retune(final int egressPort, final long optimisticRate, final long halftimisticRate, final long pessimisticRate,
        final int burstBytes) {
    }
}
