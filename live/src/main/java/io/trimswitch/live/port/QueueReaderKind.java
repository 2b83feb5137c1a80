package io.trimswitch.live.port;

import io.trimswitch.dataplane.ports.Burst;
import io.trimswitch.interfaces.QueueReader;
import io.trimswitch.realtime.shard.DilatedClock;
import io.trimswitch.realtime.shard.FileDescriptorWatch;
import io.trimswitch.realtime.shard.PortKind;

/**
 * Receive queues of another shard's interface port that this shard reads ({@link QueueReader}): a burst is what they
 * hold, each frame metered here like any arrival. It sends nothing: the port's egress and its sending stay with the
 * port's own shard. Its queues' sockets wake the shard, those of the port's later sockets too.
 */
final class QueueReaderKind implements PortKind {
    private final QueueReader reader;
    private final DilatedClock clock;

    /** The latest arrival the shard's ports handed it ({@link LivePorts#arrivedThrough}). */
    private final java.util.function.LongSupplier arrivedThrough;

    QueueReaderKind(final QueueReader reader, final DilatedClock clock, final java.util.function.LongSupplier arrivedThrough) {
        this.reader = reader;
        this.clock = clock;
        this.arrivedThrough = arrivedThrough;
    }

    /** Only up to the last frame taken where its queues held more than the budget, as {@link InterfacePortKind#horizon}. */
    @Override
    public long horizon(final long now) {
        return FrameArrival.horizon(reader.readThroughNanos(), clock, now, arrivedThrough.getAsLong());
    }

    /** The kernel's receive time, as {@link InterfacePortKind#stampsArrivals}. */
    @Override
    public boolean stampsArrivals() {
        return true;
    }

    @Override
    public int receive(final Burst burst) {
        return reader.receive(burst);
    }

    /** Never called: no port's departures are this kind's to send. */
    @Override
    public void send(final int port, final int handle, final long time) {
        throw new IllegalStateException("port " + port + ": its receive queues on this thread send nothing");
    }

    @Override
    public boolean waitsForBuffers() {
        return reader.waitsForBuffers();
    }

    @Override
    public void watchFileDescriptors(final FileDescriptorWatch watch) {
        reader.wakeOnFrames(InterfacePortKind.readiness(watch));
    }
}
