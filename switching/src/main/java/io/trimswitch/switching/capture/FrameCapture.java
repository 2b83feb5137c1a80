package io.trimswitch.switching.capture;

import org.agrona.DirectBuffer;

/** Sees every frame a port receives from its host and sends to it, for captures. */
public interface FrameCapture extends AutoCloseable {
    /** Port {@code port} received this frame from its host, complete at {@code picos}. */
    void received(int port, long picos, DirectBuffer buffer, int offset, int length);

    /** Port {@code port} finished sending this frame to its host at {@code picos}. */
    void sent(int port, long picos, DirectBuffer buffer, int offset, int length);

    @Override
    void close();
}
