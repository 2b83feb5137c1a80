package io.trimswitch.interfaces;

import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;

/**
 * A port whose receive queues several pipeline threads read, as DPDK's lcores and OVS's polling threads each read some
 * of a NIC's queues: the socket {@code kind} opens, of which the port's own thread reads the queues {@code own} lists,
 * sends (from its queue 0, so each send ring has one writer) and does everything else, while each other thread reads
 * its queues through a {@link QueueReader}. The other threads take each socket the port opens up on the port's
 * thread's first read of it (a socket opened ahead by the control thread is not read before it is the port's), and let
 * it go before it closes.
 */
public final class SpreadQueues implements SocketKind {
    private final SocketKind kind;
    private final int[] own;
    private final List<QueueReader> readers;
    /** Which thread reads each queue, for the start-up line. */
    private final String placement;

    /**
     * @param own       the receive queues the port's own thread reads (queue 0 among them)
     * @param readers   the other threads' readers of the port's other queues
     * @param placement which thread reads each queue, in words
     */
    public SpreadQueues(final SocketKind kind, final int[] own, final List<QueueReader> readers, final String placement) {
        this.kind = kind;
        this.own = own.clone();
        this.readers = List.copyOf(readers);
        this.placement = placement;
    }

    @Override
    public String name() {
        return kind.name();
    }

    @Override
    public PortSocket open(final String interfaceName, final LinuxCalls calls, final boolean mustBeUp, final int queues) {
        return new Spread(kind.open(interfaceName, calls, mustBeUp, queues));
    }

    /** The port's socket as its own thread sees it: its own queues, the readers' taken up at its first read. */
    private final class Spread implements PortSocket {
        private final PortSocket socket;
        private final int[] wakeFds;
        private boolean shared;

        Spread(final PortSocket socket) {
            this.socket = socket;
            this.wakeFds = new int[own.length];
            for (int i = 0; i < own.length; i++) {
                wakeFds[i] = socket.queueFd(own[i]);
            }
        }

        @Override
        public int receive(final Receiver receiver, final int budget, final LinuxCalls calls, final UnsafeBuffer longFrame) {
            if (!shared) {
                shared = true;
                readers.forEach(reader -> reader.take(socket));
            }
            int frames = 0;
            for (final int queue : own) {
                frames += socket.receive(queue, receiver, budget - frames, calls, longFrame);
            }
            return frames;
        }

        /** The readers let go of the socket first; one whose thread is stuck in a read leaves it open, to go with the process. */
        @Override
        public void close() {
            boolean free = true;
            for (final QueueReader reader : readers) {
                free &= reader.letGo(socket);
            }
            if (free) {
                socket.close();
            }
        }

        @Override
        public int[] wakeFds() {
            return wakeFds.clone();
        }

        @Override
        public String describe() {
            return socket.describe() + ", " + placement;
        }

        @Override
        public String name() {
            return socket.name();
        }

        @Override
        public int index() {
            return socket.index();
        }

        @Override
        public int fd() {
            return socket.fd();
        }

        @Override
        public int mtu() {
            return socket.mtu();
        }

        @Override
        public void mtu(final int value) {
            socket.mtu(value);
        }

        @Override
        public int longestFrame() {
            return socket.longestFrame();
        }

        @Override
        public boolean carriesOffload() {
            return socket.carriesOffload();
        }

        @Override
        public int send(final LinuxCalls calls, final UnsafeBuffer messages, final int from, final int count) {
            return socket.send(calls, messages, from, count);
        }

        @Override
        public long ringDrops(final LinuxCalls calls) {
            return socket.ringDrops(calls);
        }

        @Override
        public long fillRingDrops() {
            return socket.fillRingDrops();
        }

        @Override
        public int queues() {
            return socket.queues();
        }

        @Override
        public int queueFd(final int queue) {
            return socket.queueFd(queue);
        }

        @Override
        public int receive(final int queue, final Receiver receiver, final int budget, final LinuxCalls calls, final UnsafeBuffer longFrame) {
            return socket.receive(queue, receiver, budget, calls, longFrame);
        }
    }
}
