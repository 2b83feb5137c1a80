package io.trimswitch.interfaces;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.OffloadHeader;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.counters.LivePortCounters;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.ports.Burst;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.function.IntSupplier;

/**
 * One thread's side of an interface port's receive rings: counts each frame, and copies each it can take, with its
 * offload header, into a buffer of the thread's partition of the pool, a descriptor in the thread's burst (a frame
 * that finds no free buffer is a descriptor without one, which the thread counts). The port's own thread counts frames
 * and drops alike in the port's counters; a thread that reads others of its queues counts the frames under its own
 * name ({@link QueueReader}).
 */
final class PortReceiver implements PortSocket.Receiver {
    private final int port;
    /** Where frames and segments are counted. */
    private final LivePortCounters received;
    /** Where drops are counted. */
    private final LivePortCounters counters;
    private final PacketPool pool;
    private final IntSupplier allocate;
    /** The longest frame a packet buffer holds: a longer one is dropped as oversize. */
    private final int slotBytes;
    /** Where this call's frames go: the thread's burst. */
    private Burst burst;
    /** When the kernel received the last frame handed over, as its kind stamped it. */
    private long lastReceivedNanos = Burst.UNSTAMPED;

    PortReceiver(final int port, final LivePortCounters received, final LivePortCounters counters, final PacketPool pool,
        final IntSupplier allocate) {
        this.port = port;
        this.received = received;
        this.counters = counters;
        this.pool = pool;
        this.allocate = allocate;
        this.slotBytes = pool.slotBytes();
    }

    /** The frames of the next receive go into {@code frames}. */
    PortReceiver into(final Burst frames) {
        this.burst = frames;
        return this;
    }

    @Override
    public void onFrame(final UnsafeBuffer ring, final int frame, final int length, final long receivedNanos) {
        lastReceivedNanos = receivedNanos;
        received.increment(CounterType.RX_DATAGRAMS);
        if (length < EthernetHeader.LENGTH) {
            counters.drop(DropReason.TOO_SHORT);
            return;
        }
        if (length > slotBytes) {
            counters.drop(DropReason.OVERSIZE);
            return;
        }
        received.add(CounterType.RX_SEGMENTS, OffloadHeader.segments(ring, frame - OffloadHeader.LENGTH, length));
        final int handle = allocate.getAsInt();
        if (handle != PacketPool.NO_PACKET) {
            pool.buffer(handle).putBytes(pool.offset(handle) - OffloadHeader.LENGTH, ring, frame - OffloadHeader.LENGTH, length + OffloadHeader.LENGTH);
            pool.length(handle, length);
        }
        burst.add(port, handle, receivedNanos);
    }

    long lastReceivedNanos() {
        return lastReceivedNanos;
    }

    /** The frame is already in the pool's buffer {@code handle} (an AF_XDP UMEM frame), which fits it: counted and taken. */
    @Override
    public boolean onBuffer(final int handle, final int length, final long receivedNanos) {
        lastReceivedNanos = receivedNanos;
        received.increment(CounterType.RX_DATAGRAMS);
        if (length < EthernetHeader.LENGTH) {
            counters.drop(DropReason.TOO_SHORT);
            return false;
        }
        pool.length(handle, length);
        received.add(CounterType.RX_SEGMENTS, OffloadHeader.segments(pool.buffer(handle), pool.offset(handle) - OffloadHeader.LENGTH, length));
        burst.add(port, handle, receivedNanos);
        return true;
    }

    @Override
    public void onTruncated() {
        received.increment(CounterType.RX_DATAGRAMS);
        counters.drop(DropReason.TRUNCATED);
    }

    @Override
    public void onVlanStripped() {
        received.increment(CounterType.RX_DATAGRAMS);
        counters.drop(DropReason.VLAN_TAGGED);
    }
}
