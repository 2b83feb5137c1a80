package io.trimswitch.realtime;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.realtime.shard.PortTap;
import io.trimswitch.switching.capture.FrameCapture;
import org.agrona.DirectBuffer;

/** A scenario's capture as a tap on a shard's ports: every frame a port received and sent, at its switch time. */
final class FrameCaptureTap implements PortTap {
    private final FrameCapture capture;
    private final PacketPool pool;

    FrameCaptureTap(final FrameCapture capture, final PacketPool pool) {
        this.capture = capture;
        this.pool = pool;
    }

    @Override
    public void received(final int port, final long time, final DirectBuffer buffer, final int offset, final int length) {
        capture.received(port, time, buffer, offset, length);
    }

    @Override
    public void departed(final int port, final int handle, final long time) {
        capture.sent(port, time, pool.buffer(handle), pool.offset(handle), pool.length(handle));
    }
}
