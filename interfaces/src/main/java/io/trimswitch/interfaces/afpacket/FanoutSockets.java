package io.trimswitch.interfaces.afpacket;

import io.trimswitch.interfaces.LinuxCalls;
import io.trimswitch.interfaces.PortSocket;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * An {@code af_packet} port of several receive queues: one {@link PacketSocket} with a ring of its own per queue, the
 * sockets in one PACKET_FANOUT group, which shares the interface's frames out among them by their flow's hash (as a
 * NIC's RSS shares them out among its queues), so that each queue can be read on another thread. The port sends from
 * its first socket alone, so each send path has one writer.
 */
final class FanoutSockets implements PortSocket {
    private final PacketSocket[] sockets;
    private final int[] fds;

    private FanoutSockets(final PacketSocket[] sockets) {
        this.sockets = sockets;
        this.fds = new int[sockets.length];
        for (int i = 0; i < sockets.length; i++) {
            fds[i] = sockets[i].fd();
        }
    }

    /**
     * Opens {@code queues} packet sockets on {@code interfaceName}, in a fanout group of their own.
     *
     * @throws IllegalStateException with one line naming the interface and the reason
     */
    static FanoutSockets open(final String interfaceName, final LinuxCalls calls, final boolean mustBeUp, final int queues) {
        final PacketSocket[] sockets = new PacketSocket[queues];
        try {
            int group = 0;
            for (int queue = 0; queue < queues; queue++) {
                sockets[queue] = PacketSocket.open(interfaceName, calls, mustBeUp);
                group = sockets[queue].joinFanout(calls, group);
            }
            return new FanoutSockets(sockets);
        } catch (final RuntimeException e) {
            for (final PacketSocket socket : sockets) {
                if (socket != null) {
                    socket.close();
                }
            }
            throw e;
        }
    }

    @Override
    public String name() {
        return sockets[0].name();
    }

    @Override
    public int index() {
        return sockets[0].index();
    }

    @Override
    public int fd() {
        return sockets[0].fd();
    }

    @Override
    public int[] wakeFds() {
        return fds.clone();
    }

    @Override
    public int mtu() {
        return sockets[0].mtu();
    }

    @Override
    public void mtu(final int value) {
        for (final PacketSocket socket : sockets) {
            socket.mtu(value);
        }
    }

    @Override
    public int longestFrame() {
        return sockets[0].longestFrame();
    }

    @Override
    public boolean carriesOffload() {
        return true;
    }

    @Override
    public int receive(final Receiver receiver, final int budget, final LinuxCalls calls, final UnsafeBuffer longFrame) {
        int taken = 0;
        for (final PacketSocket socket : sockets) {
            taken += socket.receive(receiver, budget - taken, calls, longFrame);
        }
        return taken;
    }

    @Override
    public int queues() {
        return sockets.length;
    }

    @Override
    public int receive(final int queue, final Receiver receiver, final int budget, final LinuxCalls calls, final UnsafeBuffer longFrame) {
        return sockets[queue].receive(receiver, budget, calls, longFrame);
    }

    @Override
    public int queueFd(final int queue) {
        return fds[queue];
    }

    @Override
    public int send(final LinuxCalls calls, final UnsafeBuffer messages, final int from, final int count) {
        return sockets[0].send(calls, messages, from, count);
    }

    /** What every socket's ring dropped; any thread may ask. */
    @Override
    public long ringDrops(final LinuxCalls calls) {
        long drops = 0;
        for (final PacketSocket socket : sockets) {
            drops += socket.ringDrops(calls);
        }
        return drops;
    }

    @Override
    public String describe() {
        return "AF_PACKET, " + sockets.length + " queues in a PACKET_FANOUT group";
    }

    @Override
    public void close() {
        for (final PacketSocket socket : sockets) {
            socket.close();
        }
    }
}
