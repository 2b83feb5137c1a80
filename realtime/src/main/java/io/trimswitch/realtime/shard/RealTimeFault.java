package io.trimswitch.realtime.shard;

/** A shard's thread threw: the run stops and says which thread and why. */
public final class RealTimeFault extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RealTimeFault(final String thread, final Throwable cause) {
        super("real-time thread " + thread + " failed: " + cause, cause);
    }
}
