package io.trimswitch.realtime;

import io.trimswitch.switching.capture.FrameCapture;
import org.agrona.DirectBuffer;

/** A capture several shards' threads write to: one frame at a time, in the order they come. */
final class LockedCapture implements FrameCapture {
    private final FrameCapture inner;

    LockedCapture(final FrameCapture inner) {
        this.inner = inner;
    }

    @Override
    public synchronized void received(final int port, final long picos, final DirectBuffer buffer, final int offset, final int length) {
        inner.received(port, picos, buffer, offset, length);
    }

    @Override
    public synchronized void sent(final int port, final long picos, final DirectBuffer buffer, final int offset, final int length) {
        inner.sent(port, picos, buffer, offset, length);
    }

    @Override
    public synchronized void close() {
        inner.close();
    }
}
