package io.trimswitch.realtime.shard;

import org.agrona.DirectBuffer;

/**
 * What a shard's ports show of their traffic without changing it, as a tap on each link would: captures, queue-depth
 * records. It sees every frame a port received (those the switch then refuses too) and every packet that left an egress
 * port, before it is sent. On the shard's thread.
 */
public interface PortTap {
    /** A tap that sees nothing. */
    PortTap NONE = new PortTap() {
        @Override
        public void received(final int port, final long time, final DirectBuffer buffer, final int offset, final int length) {
        }

        @Override
        public void departed(final int port, final int handle, final long time) {
        }
    };

    /** A frame came in on {@code port} at switch time {@code time}; its bytes are valid only during the call. */
    void received(int port, long time, DirectBuffer buffer, int offset, int length);

    /** Packet {@code handle} left egress port {@code port} at {@code time}, before it is sent. */
    void departed(int port, int handle, long time);
}
