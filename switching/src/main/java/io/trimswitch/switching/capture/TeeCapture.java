package io.trimswitch.switching.capture;

import org.agrona.DirectBuffer;

import java.util.List;

/** Hands every frame to several captures. */
public final class TeeCapture implements FrameCapture {
    private final FrameCapture[] captures;

    public TeeCapture(final List<FrameCapture> captures) {
        this.captures = captures.toArray(new FrameCapture[0]);
    }

    @Override
    public void received(final int port, final long picos, final DirectBuffer buffer, final int offset, final int length) {
        for (final FrameCapture capture : captures) {
            capture.received(port, picos, buffer, offset, length);
        }
    }

    @Override
    public void sent(final int port, final long picos, final DirectBuffer buffer, final int offset, final int length) {
        for (final FrameCapture capture : captures) {
            capture.sent(port, picos, buffer, offset, length);
        }
    }

    @Override
    public void close() {
        for (final FrameCapture capture : captures) {
            capture.close();
        }
    }
}
