package io.trimswitch.realtime.shard;

/** Ports that receive nothing of their own: what a test puts in a shard, and how far the test says they have received. */
final class QuietPorts implements ShardPorts {
    /** Every arrival before this switch time is in the shard ({@link #horizon}); MAX_VALUE: up to now. */
    long receivedUpTo = Long.MAX_VALUE;
    int wakes;
    int departures;

    @Override
    public int receive() {
        return 0;
    }

    @Override
    public long horizon(final long now) {
        return Math.min(now, receivedUpTo);
    }

    @Override
    public void departed(final int port, final int handle, final long time) {
        departures++;
    }

    @Override
    public void await(final long nanos) {
    }

    @Override
    public void wake() {
        wakes++;
    }

    @Override
    public void close() {
    }
}
