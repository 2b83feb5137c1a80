package io.trimswitch.switching.shard;

/** An agent threw: the run stops and says which agent and why. */
public final class RealTimeFault extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RealTimeFault(final String thread, final Throwable cause) {
        super("real-time thread " + thread + " failed: " + cause, cause);
    }
}
