package io.trimswitch.ndp.live;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

/** A socket read a batch at a time: a busy socket still leaves the host's loop its timers and its link each turn. */
final class DatagramBatch {
    static final int DATAGRAMS = 64;

    /** What a host does with one datagram, which lies in its receive buffer from 0 to {@code length}. */
    @FunctionalInterface
    interface Handler {
        void received(InetSocketAddress from, int length);
    }

    private DatagramBatch() {
    }

    /** Up to a batch of datagrams from {@code channel}, each received into {@code in} and handed on; returns how many. */
    static int read(final DatagramChannel channel, final ByteBuffer in, final Handler handler) throws IOException {
        for (int count = 0; count < DATAGRAMS; count++) {
            in.clear();
            final InetSocketAddress from = (InetSocketAddress) channel.receive(in);
            if (from == null) {
                return count;
            }
            handler.received(from, in.position());
        }
        return DATAGRAMS;
    }
}
