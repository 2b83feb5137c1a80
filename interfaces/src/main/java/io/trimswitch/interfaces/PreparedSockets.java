package io.trimswitch.interfaces;

import java.lang.foreign.Arena;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Per port: the interface the control thread opened for the port's next attachment, until the ports' thread takes it.
 * Opening an interface and mapping its ring takes milliseconds that the ports' thread would otherwise spend not
 * forwarding; that thread then only registers the socket. An opened socket that no request takes is closed with the ports.
 */
final class PreparedSockets {
    /** An interface opened, or found not to open yet, by the control thread, for one port's next attachment. */
    record Prepared(String interfaceName, PortSocket socket, String failure) {
        void close() {
            if (socket != null) {
                socket.close();
            }
        }
    }

    private final AtomicReferenceArray<Prepared> prepared;
    /** The control thread's calls, so that errno is never shared with the ports' thread. */
    private final LinuxCalls calls;
    /** Set once the ports close, after which the arena's memory is gone. */
    private volatile boolean closed;

    PreparedSockets(final int ports, final Arena arena) {
        this.prepared = new AtomicReferenceArray<>(ports);
        this.calls = new LinuxCalls(arena);
    }

    /** From the control thread: opens {@code interfaceName} for {@code port}, or notes why it cannot be opened yet. */
    void prepare(final int port, final String interfaceName, final SocketKind kind, final int queues) {
        Prepared opened;
        synchronized (calls) {
            if (closed) {
                return;
            }
            try {
                opened = new Prepared(interfaceName, kind.open(interfaceName, calls, false, queues), null);
            } catch (final IllegalStateException e) {
                opened = new Prepared(interfaceName, null, e.getMessage());
            }
        }
        final Prepared unclaimed = prepared.getAndSet(port, opened);
        if (unclaimed != null) {
            unclaimed.close();
        }
        if (closed) {
            // The ports closed meanwhile (the switch stopped): no one else will close it.
            final Prepared late = prepared.getAndSet(port, null);
            if (late != null) {
                late.close();
            }
        }
    }

    /** On the ports' thread: what was opened for {@code port}'s attachment to {@code request}, or null; any other opening is closed. */
    Prepared claim(final int port, final String request) {
        final Prepared opened = prepared.getAndSet(port, null);
        if (opened != null && !opened.interfaceName().equals(request)) {
            opened.close();
            return null;
        }
        return opened;
    }

    /** Closes every socket that no request took; nothing is opened from now on. */
    void close() {
        closed = true;
        for (int port = 0; port < prepared.length(); port++) {
            final Prepared unclaimed = prepared.getAndSet(port, null);
            if (unclaimed != null) {
                unclaimed.close();
            }
        }
    }

    /** Frees {@code arena}, not while the control thread opens an interface with its memory. */
    void free(final Arena arena) {
        synchronized (calls) {
            arena.close();
        }
    }
}
