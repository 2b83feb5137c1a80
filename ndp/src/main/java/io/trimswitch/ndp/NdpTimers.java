package io.trimswitch.ndp;

/**
 * The wake-ups the state machines ask for, in the driver's time unit: events on the simulator's queue, deadlines
 * in a live host's loop. Each is asked for at most once while it is pending.
 */
public interface NdpTimers {
    /** Call {@link NdpSender#timeout} for {@code flow} at {@code time}. */
    void retransmitAt(long time, int flow);

    /** Call {@link PullPacer#tick} for {@code link} at {@code time}. */
    void pullAt(long time, int link);
}
