package io.trimswitch.interfaces;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.OffloadHeader;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.counters.LivePortCounters;
import org.agrona.concurrent.UnsafeBuffer;

/** One interface port's side of its receive ring, on the ports' thread: counts each frame and hands on those it can take. */
final class PortReceiver implements PortSocket.Receiver {
    private final int port;
    private final LivePortCounters counters;
    private final InterfacePorts.FrameHandler handler;
    /** The longest frame a packet buffer holds: a longer one is dropped as oversize. */
    private final int slotBytes;

    PortReceiver(final int port, final LivePortCounters counters, final InterfacePorts.FrameHandler handler, final int slotBytes) {
        this.port = port;
        this.counters = counters;
        this.handler = handler;
        this.slotBytes = slotBytes;
    }

    @Override
    public void onFrame(final UnsafeBuffer ring, final int frame, final int length) {
        counters.increment(CounterType.RX_DATAGRAMS);
        if (length < EthernetHeader.LENGTH) {
            counters.drop(DropReason.TOO_SHORT);
            return;
        }
        if (length > slotBytes) {
            counters.drop(DropReason.OVERSIZE);
            return;
        }
        counters.add(CounterType.RX_SEGMENTS, OffloadHeader.segments(ring, frame - OffloadHeader.LENGTH, length));
        handler.onFrame(port, ring, frame, length);
    }

    @Override
    public void onTruncated() {
        counters.increment(CounterType.RX_DATAGRAMS);
        counters.drop(DropReason.TRUNCATED);
    }

    @Override
    public void onVlanStripped() {
        counters.increment(CounterType.RX_DATAGRAMS);
        counters.drop(DropReason.VLAN_TAGGED);
    }
}
