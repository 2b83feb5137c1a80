package io.trimswitch.live.port;

import io.trimswitch.dataplane.ports.Burst;
import io.trimswitch.interfaces.InterfacePorts;
import io.trimswitch.realtime.shard.DilatedClock;
import io.trimswitch.realtime.shard.FileDescriptorWatch;
import io.trimswitch.realtime.shard.PortKind;

/**
 * A shard's ports on Linux interfaces (AF_PACKET rings, AF_XDP sockets): a burst is what every ring holds, up to a
 * budget per port, taken into buffers of the shard's partition; a
 * frame is sent straight from its buffer, one sendmmsg per port and turn, and the interface gives the buffer back once
 * the kernel has the frame. Each port's packet socket wakes the shard, a port attached while the switch runs too.
 */
final class InterfacePortKind implements PortKind {
    private final InterfacePorts interfaces;
    private final DilatedClock clock;
    /** The latest arrival the shard's ports handed it ({@link LivePorts#arrivedThrough}). */
    private final java.util.function.LongSupplier arrivedThrough;

    InterfacePortKind(final InterfacePorts interfaces, final DilatedClock clock, final java.util.function.LongSupplier arrivedThrough) {
        this.interfaces = interfaces;
        this.clock = clock;
        this.arrivedThrough = arrivedThrough;
    }

    /**
     * Where a ring still holds frames past its budget, only up to the last frame taken from it: the next turn times
     * those left by when the kernel received them, which a shard that had gone on to now would have to put after now.
     */
    @Override
    public long horizon(final long now) {
        return FrameArrival.horizon(interfaces.readThroughNanos(), clock, now, arrivedThrough.getAsLong());
    }

    /** Each frame carries the kernel's receive time ({@link FrameArrival}), whenever a turn reads it. */
    @Override
    public boolean stampsArrivals() {
        return true;
    }

    @Override
    public int receive(final Burst burst) {
        return interfaces.receive(burst);
    }

    @Override
    public void send(final int port, final int handle, final long time) {
        interfaces.send(port, handle);
    }

    @Override
    public void flush() {
        interfaces.flush();
    }

    /** A frame the kernel will not take is dropped as txBusy, never held. */
    @Override
    public boolean hasUnsent() {
        return false;
    }

    @Override
    public boolean waitsForBuffers() {
        return interfaces.waitsForBuffers();
    }

    @Override
    public void watchFileDescriptors(final FileDescriptorWatch watch) {
        interfaces.wakeOnFrames(readiness(watch));
    }

    /** The shard's sleep, woken by an interface's sockets as by packet sockets. */
    static InterfacePorts.Readiness readiness(final FileDescriptorWatch watch) {
        return new InterfacePorts.Readiness() {
            @Override
            public void watch(final int fd) {
                watch.add(fd, true);
            }

            @Override
            public void unwatch(final int fd) {
                watch.remove(fd);
            }
        };
    }

    /** The rings close once the shard's thread has ended, with the switch's stop: their memory is the thread's until then. */
    @Override
    public void close() {
    }
}
