package io.trimswitch.interfaces;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.OffloadHeader;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.counters.LivePortCounters;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One thread's side of an interface port's receive rings: counts each frame and hands on those it can take. The port's
 * own thread counts frames and drops alike in the port's counters; a thread that reads others of its queues counts the
 * frames under its own name ({@link QueueReader}).
 */
final class PortReceiver implements PortSocket.Receiver {
    private final int port;
    /** Where frames and segments are counted. */
    private final LivePortCounters received;
    /** Where drops are counted. */
    private final LivePortCounters counters;
    private final InterfacePorts.FrameHandler handler;
    /** The longest frame a packet buffer holds: a longer one is dropped as oversize. */
    private final int slotBytes;

    PortReceiver(final int port, final LivePortCounters received, final LivePortCounters counters, final InterfacePorts.FrameHandler handler,
        final int slotBytes) {
        this.port = port;
        this.received = received;
        this.counters = counters;
        this.handler = handler;
        this.slotBytes = slotBytes;
    }

    @Override
    public void onFrame(final UnsafeBuffer ring, final int frame, final int length) {
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
        handler.onFrame(port, ring, frame, length);
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
