package io.trimswitch.interfaces.afxdp;

import io.trimswitch.dataplane.packet.UmemShare;
import io.trimswitch.interfaces.EthernetInterfaces;
import io.trimswitch.interfaces.LinuxCalls;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The kernel's side of one {@link UmemShare}: the AF_XDP sockets bound to it, of every port whose queues one thread
 * reads. The first registers the memory (XDP_UMEM_REG); each later one binds with XDP_SHARED_UMEM through any socket
 * still bound to it, with a fill and completion ring of its own. The kernel keeps a UMEM while any socket holds it, but
 * shares it only through a bound one: a socket whose interface was deleted is unbound, and once every port is gone there
 * is none. Then the next socket registers the same memory again, so that ports come and go in any order. Each buffer is
 * lent to one socket at a time ({@link LentFrames}), whichever registration it went through.
 */
final class SharedUmem {
    /** One per share, kept while the share is (its switch's dataplane holds it): the value holds no reference to its key. */
    private static final Map<UmemShare, SharedUmem> OF = Collections.synchronizedMap(new WeakHashMap<>());
    /** How often, and how far apart, a bind to a queue still held is tried again. */
    private static final int BUSY_TRIES = 20;
    private static final long BUSY_WAIT_NANOS = 5_000_000L;
    private static final int REGISTRATION_BYTES = 32;

    /** The piece of memory: where it starts, and its length. */
    private final long address;
    private final long bytes;
    /** The sockets bound to the memory, oldest first; each leaves before it closes. */
    private final List<Integer> members = new ArrayList<>();
    /** How the last registration bound, which every socket sharing it inherits. */
    private String mode = "copy mode";
    /** How often the memory was registered (XDP_UMEM_REG): once, and again each time every socket had gone. */
    private int registrations;

    private SharedUmem(final UmemShare share) {
        this.address = share.address();
        this.bytes = share.bytes();
    }

    static SharedUmem of(final UmemShare share) {
        return OF.computeIfAbsent(share, SharedUmem::new);
    }

    /**
     * Binds socket {@code fd}, its rings made, to receive queue {@code queue} of the interface at {@code index}: sharing the
     * memory through a bound member, else registering it; how it bound, for the start-up line. Under this object's lock,
     * so that no member closes while another binds through it.
     *
     * @throws IllegalStateException with one line naming the interface, the cause and the fix
     */
    synchronized String bind(final int fd, final int index, final int queue, final LinuxCalls calls, final String interfaceName) {
        try (Arena scratch = Arena.ofConfined()) {
            final MemorySegment address = scratch.allocate(16, 4);
            address.set(ValueLayout.JAVA_SHORT, 0, (short) XdpCalls.AF_XDP);
            address.set(ValueLayout.JAVA_INT, 4, index);
            address.set(ValueLayout.JAVA_INT, 8, queue);
            for (final int member : members) {
                // Shared sockets give no flags: they take the registration's copy or zero-copy mode and need_wakeup.
                address.set(ValueLayout.JAVA_SHORT, 2, (short) XdpCalls.XDP_SHARED_UMEM);
                address.set(ValueLayout.JAVA_INT, 12, member);
                if (bindRetrying(calls, fd, address, interfaceName, queue) == 0) {
                    members.add(fd);
                    return mode;
                }
            }
            register(fd, calls, scratch, interfaceName);
            registrations++;
            address.set(ValueLayout.JAVA_INT, 12, 0);
            address.set(ValueLayout.JAVA_SHORT, 2, (short) (XdpCalls.XDP_ZEROCOPY | XdpCalls.XDP_USE_NEED_WAKEUP));
            if (calls.bind(fd, address) == 0) {
                mode = "zero-copy";
            } else {
                address.set(ValueLayout.JAVA_SHORT, 2, (short) (XdpCalls.XDP_COPY | XdpCalls.XDP_USE_NEED_WAKEUP));
                if (bindRetrying(calls, fd, address, interfaceName, queue) != 0) {
                    EthernetInterfaces.check(calls, -1, interfaceName, "bind an AF_XDP socket to it");
                }
                mode = "copy mode";
            }
            members.add(fd);
            return mode;
        }
    }

    synchronized int registrations() {
        return registrations;
    }

    /** Socket {@code fd} closes: no later socket shares through it. */
    synchronized void leave(final int fd) {
        members.remove(Integer.valueOf(fd));
    }

    private void register(final int fd, final LinuxCalls calls, final Arena scratch, final String interfaceName) {
        final MemorySegment registration = scratch.allocate(REGISTRATION_BYTES, 8);
        registration.set(ValueLayout.JAVA_LONG, 0, address);
        registration.set(ValueLayout.JAVA_LONG, 8, bytes);
        registration.set(ValueLayout.JAVA_INT, 16, UmemShare.CHUNK);
        EthernetInterfaces.check(calls, calls.setsockopt(fd, XdpCalls.SOL_XDP, XdpCalls.XDP_UMEM_REG, registration), interfaceName,
            "register its UMEM");
    }

    /**
     * A bind, tried again while the queue is busy: a socket just closed on it (a port removed and added again) lets go a
     * moment later. 0, or the errno of a failure other than a busy queue.
     */
    private static int bindRetrying(final LinuxCalls calls, final int fd, final MemorySegment address, final String interfaceName, final int queue) {
        int bound = calls.bind(fd, address);
        for (int tries = 1; bound != 0 && calls.errno() == XdpCalls.EBUSY && tries < BUSY_TRIES; tries++) {
            java.util.concurrent.locks.LockSupport.parkNanos(BUSY_WAIT_NANOS);
            bound = calls.bind(fd, address);
        }
        if (bound == 0) {
            return 0;
        }
        if (calls.errno() == XdpCalls.EBUSY) {
            throw new IllegalStateException("interface " + interfaceName + ": its receive queue " + queue + " already has an AF_XDP socket (another switch"
                + " or program holds it: stop that one, or use kind af_packet)");
        }
        return calls.errno();
    }
}
