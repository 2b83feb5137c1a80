package io.trimswitch.network.run;

/**
 * How far a network run has come, read from another thread while it goes on, for a progress line: plain reads of the
 * run's own counters, which may lag a little behind it, and never a write.
 */
public final class NetworkProgress {
    private final NetworkRun run;

    public NetworkProgress(final NetworkRun run) {
        this.run = run;
    }

    public int flowsCompleted() {
        return run.lifetimes().completedFlows();
    }

    /** The flows the hosts run. */
    public int flows() {
        return run.recorder().flows();
    }

    /** When the last packet so far left a switch. */
    public long virtualPicos() {
        return run.lastPacketPicos();
    }
}
