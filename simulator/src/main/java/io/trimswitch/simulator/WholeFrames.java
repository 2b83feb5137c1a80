package io.trimswitch.simulator;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.switching.capture.FrameCapture;
import org.agrona.concurrent.UnsafeBuffer;

/** Frames handed to a capture whole: from their buffer, or made whole where the buffer keeps only their headers. */
final class WholeFrames {
    private final FrameCapture capture;
    private final PacketPool pool;
    /** A captured frame made whole: its stored headers, then the zeros of its payload. */
    private final UnsafeBuffer made;

    WholeFrames(final FrameCapture capture, final PacketPool pool) {
        this.capture = capture;
        this.pool = pool;
        this.made = new UnsafeBuffer(new byte[Math.max(PacketPool.SLOT_BYTES, pool.slotBytes())]);
    }

    /** Frame {@code handle} has fully arrived at network port {@code port}. */
    void received(final int port, final int handle, final long time) {
        show(false, port, handle, time);
    }

    /** Frame {@code handle}'s last bit has left network port {@code port}. */
    void sent(final int port, final int handle, final long time) {
        show(true, port, handle, time);
    }

    private void show(final boolean sent, final int port, final int handle, final long time) {
        final int length = pool.length(handle);
        final UnsafeBuffer buffer;
        final int offset;
        if (length <= pool.storedBytes()) {
            buffer = pool.buffer(handle);
            offset = pool.offset(handle);
        } else {
            pool.copyFrame(handle, made, 0);
            buffer = made;
            offset = 0;
        }
        if (sent) {
            capture.sent(port, time, buffer, offset, length);
        } else {
            capture.received(port, time, buffer, offset, length);
        }
    }
}
