package io.trimswitch.dataplane.time;

/** A clock that only moves when the discrete-event runtime advances it. */
public final class VirtualClock implements Clock {
    private long now;

    @Override
    public long nowPicos() {
        return now;
    }

    /** Moves the clock to {@code time}; virtual time never goes backwards. */
    public void advanceTo(final long time) {
        if (time < now) {
            throw new IllegalArgumentException("virtual time cannot go back from " + now + " ps to " + time + " ps");
        }
        now = time;
    }

    public void reset() {
        now = 0;
    }
}
