package io.trimswitch.uet;

/** The wake-ups a sender asks for, in the driver's time unit; each is asked for at most once while it is pending. */
public interface UetTimers {
    /** Call {@link UetSender#timeout} for {@code flow} at {@code time}. */
    void retransmitAt(long time, int flow);

    /** RCCC: call {@link PullPacers#turn} for receiving host {@code host} at {@code time}. */
    void pullAt(long time, int host);

    /** The oversubscribed receiver CC: call {@link OversubscribedCc#look} for receiving host {@code host} at {@code time}. */
    void congestionAt(long time, int host);
}
