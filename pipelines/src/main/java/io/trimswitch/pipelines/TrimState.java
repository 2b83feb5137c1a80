package io.trimswitch.pipelines;

/** The three states of the trim control loop, per (pipeline, egress port). */
public final class TrimState {
    /** Trim to the line rate R: the pipeline assumes it is alone. */
    public static final int OPTIMISTIC = 0;
    /** Trim to R/2 after the pessimistic period, while other pipelines may still send. */
    public static final int HALFTIMISTIC = 1;
    /** Trim to R/4 (one pipeline's fair share of four) right after a congestion notification. */
    public static final int PESSIMISTIC = 2;
    public static final int COUNT = 3;

    private static final String[] NAMES = {"optimistic", "halftimistic", "pessimistic"};

    private TrimState() {
    }

    public static String name(final int state) {
        return NAMES[state];
    }
}
