package io.trimswitch.realtime.shard;

import io.trimswitch.dataplane.ports.Burst;

/**
 * Ports that receive nothing of their own: what a test puts in a shard, how far the test says they have received, and
 * a sleep that counts its wakes.
 */
final class QuietPorts implements PortKind, ShardSleep {
    /** Every arrival before this switch time is in the shard ({@link #horizon}); MAX_VALUE: up to now. */
    long receivedUpTo = Long.MAX_VALUE;
    int wakes;
    /** What {@link #waitsForBuffers} says. */
    boolean waitingForBuffers;
    int departures;

    /** These ports, the only kind of a shard of a switch of {@code ports} ports, which sleeps here. */
    PortList list(final int ports) {
        return new PortList(ports, this).add(this);
    }

    @Override
    public int receive(final Burst burst) {
        return 0;
    }

    @Override
    public boolean waitsForBuffers() {
        return waitingForBuffers;
    }

    @Override
    public long horizon(final long now) {
        return Math.min(now, receivedUpTo);
    }

    @Override
    public void send(final int port, final int handle, final long time) {
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

    @Override
    public FileDescriptorWatch watch() {
        return ShardSleep.parked().watch();
    }
}
