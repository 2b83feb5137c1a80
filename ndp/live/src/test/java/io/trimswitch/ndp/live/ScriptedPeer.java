package io.trimswitch.ndp.live;

import io.trimswitch.dataplane.codec.NdpHeader;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;

/** A peer whose every datagram a test writes by hand: forged, cut, replayed or from the wrong address. */
final class ScriptedPeer implements AutoCloseable {
    final DatagramSocket socket;
    final byte[] bytes = new byte[2048];
    final UnsafeBuffer view = new UnsafeBuffer(bytes);
    SocketAddress lastFrom;

    ScriptedPeer(final String address) throws IOException {
        socket = new DatagramSocket(new InetSocketAddress(address, 0));
        socket.setSoTimeout(3000);
    }

    InetSocketAddress address() {
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    void send(final SocketAddress to, final int flags, final int session, final int flow, final int sequence, final int packets,
        final int payload, final int length) throws IOException {
        HostDatagram.write(view, flags, session, flow, sequence, 0, 0, packets, payload);
        socket.send(new DatagramPacket(bytes, length, to));
    }

    void data(final SocketAddress to, final int session, final int sequence, final int packets, final int payload, final boolean cut)
        throws IOException {
        send(to, NdpHeader.FLAG_DATA, session, 0, sequence, packets, payload, HostDatagram.HEADER_LENGTH + (cut ? 0 : payload));
    }

    void raw(final SocketAddress to, final int length) throws IOException {
        socket.send(new DatagramPacket(new byte[length], length, to));
    }

    /** The next datagram's length, its contents in {@link #view}; -1 after a few seconds of silence. */
    int receive(final int timeoutMillis) throws IOException {
        socket.setSoTimeout(timeoutMillis);
        final DatagramPacket packet = new DatagramPacket(bytes, bytes.length);
        try {
            socket.receive(packet);
        } catch (final SocketTimeoutException e) {
            return -1;
        }
        lastFrom = packet.getSocketAddress();
        return packet.getLength();
    }

    @Override
    public void close() {
        socket.close();
    }
}
