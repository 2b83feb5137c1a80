package io.trimswitch.interfaces.afxdp;

import io.trimswitch.dataplane.codec.OffloadHeader;
import io.trimswitch.dataplane.codec.PartialChecksum;
import io.trimswitch.interfaces.EthernetInterfaces;
import io.trimswitch.interfaces.LinuxCalls;
import io.trimswitch.interfaces.PortSocket;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One receive queue of an {@code af_xdp} port: an AF_XDP socket bound to it, with a UMEM of 4 KB chunks registered with
 * the kernel, the first {@link #RX_FRAMES} of them lent to the fill ring for frames to arrive in, the rest sent from. The
 * port's XDP program ({@link XdpProgram}) hands the socket every frame of its queue before the kernel makes an skb of it.
 * The socket binds zero-copy where the driver has it, else in copy mode, with need_wakeup: the kernel is called only when
 * a ring says it waits for a call. A frame arrives with no offload header (an XDP frame has none): a zero one is written
 * ahead of it; one sent leaves whole and complete, its checksum finished here if its sender left it to offload.
 */
final class XdpQueue implements AutoCloseable {
    static final int CHUNK = 4096;
    /**
     * As many as an af_packet port's ring holds: what arrives while the port's thread is off its core (at 100,000
     * frames/s, 41 ms) waits here instead of being dropped.
     */
    static final int RX_FRAMES = 4096;
    static final int TX_FRAMES = 1024;
    /** XDP_PACKET_HEADROOM: the kernel puts a frame this far into its chunk. */
    private static final int KERNEL_HEADROOM = 256;
    /** The longest frame a chunk holds past the kernel's headroom. */
    static final int LONGEST_FRAME = CHUNK - KERNEL_HEADROOM;
    private static final int RX_DESCRIPTOR = 16;
    /** How often, and how far apart, a bind to a queue still held is tried again. */
    private static final int BUSY_TRIES = 20;
    private static final long BUSY_WAIT_NANOS = 5_000_000L;
    private static final int ADDRESS = 8;
    /** struct xdp_statistics: rx_dropped, then rx_invalid_descs, tx_invalid_descs, rx_ring_full, rx_fill_ring_empty_descs. */
    private static final int STATISTICS_BYTES = 48;
    private static final int RX_RING_FULL = 24;
    private static final int RX_FILL_RING_EMPTY = 32;

    private final Arena memory;
    private final UnsafeBuffer umem;
    private final XdpRing fill;
    private final XdpRing completion;
    private final XdpRing rx;
    private final XdpRing tx;
    final int fd;
    private final XdpCalls calls;
    /** Chunks free to send from, as their addresses in the UMEM. */
    private final int[] freeChunks = new int[TX_FRAMES];
    private int freeCount;
    /** Where a frame to send is read, wrapped over the pool's buffer (no copy, no allocation). */
    private final UnsafeBuffer outgoing = new UnsafeBuffer(0L, 0);
    /** The kernel's drop counts as last read, which it never resets; under the ports' lock. */
    private long otherDroppedRead;
    private long ringFullRead;
    private long fillEmptyRead;
    /** Frames that found the fill ring empty, read by {@link #ringDrops} and not yet taken by {@link #fillRingDrops}. */
    private long fillEmptyUnread;
    /** How the socket was bound, for the start-up line. */
    final String mode;

    private XdpQueue(final int fd, final Arena memory, final MemorySegment umem, final XdpRing[] rings, final XdpCalls calls, final String mode) {
        this.fd = fd;
        this.memory = memory;
        this.umem = new UnsafeBuffer(umem.address(), (int) umem.byteSize());
        this.fill = rings[0];
        this.completion = rings[1];
        this.rx = rings[2];
        this.tx = rings[3];
        this.calls = calls;
        this.mode = mode;
        for (int i = 0; i < TX_FRAMES; i++) {
            freeChunks[i] = (RX_FRAMES + i) * CHUNK;
        }
        freeCount = TX_FRAMES;
        int produced = fill.producer();
        for (int i = 0; i < RX_FRAMES; i++) {
            fill.memory.set(ValueLayout.JAVA_LONG, fill.slot(produced++), (long) i * CHUNK);
        }
        fill.producer(produced);
    }

    /**
     * Opens an AF_XDP socket on receive queue {@code queue} of the interface at {@code index}.
     *
     * @throws IllegalStateException with one line naming the interface, the cause and the fix
     */
    static XdpQueue open(final String interfaceName, final int index, final int queue, final LinuxCalls calls, final XdpCalls xdp) {
        try (Arena scratch = Arena.ofConfined()) {
            final int fd = calls.socket(XdpCalls.AF_XDP, LinuxCalls.SOCK_RAW | LinuxCalls.SOCK_CLOEXEC, 0);
            if (fd < 0) {
                final int errno = calls.errno();
                throw new IllegalStateException("interface " + interfaceName + ": cannot open an AF_XDP socket: " + LinuxCalls.describe(errno)
                    + (errno == XdpCalls.EAFNOSUPPORT ? " (the kernel has no CONFIG_XDP_SOCKETS: use kind af_packet)"
                        : errno == LinuxCalls.EPERM ? " (needs CAP_NET_RAW: run as root)" : ""));
            }
            final Arena memory = Arena.ofShared();
            final XdpRing[] rings = new XdpRing[4];
            try {
                final MemorySegment umem = memory.allocate((long) CHUNK * (RX_FRAMES + TX_FRAMES), LinuxCalls.pageSize());
                final MemorySegment registration = scratch.allocate(32, 8);
                registration.set(ValueLayout.JAVA_LONG, 0, umem.address());
                registration.set(ValueLayout.JAVA_LONG, 8, umem.byteSize());
                registration.set(ValueLayout.JAVA_INT, 16, CHUNK);
                EthernetInterfaces.check(calls, calls.setsockopt(fd, XdpCalls.SOL_XDP, XdpCalls.XDP_UMEM_REG, registration), interfaceName,
                    "register its UMEM");
                ringSize(calls, fd, XdpCalls.XDP_UMEM_FILL_RING, RX_FRAMES, scratch, interfaceName);
                ringSize(calls, fd, XdpCalls.XDP_UMEM_COMPLETION_RING, TX_FRAMES, scratch, interfaceName);
                ringSize(calls, fd, XdpCalls.XDP_RX_RING, RX_FRAMES, scratch, interfaceName);
                ringSize(calls, fd, XdpCalls.XDP_TX_RING, TX_FRAMES, scratch, interfaceName);
                final MemorySegment offsets = scratch.allocate(4 * XdpRing.OFFSET_BYTES, 8);
                final MemorySegment length = scratch.allocate(ValueLayout.JAVA_INT);
                length.set(ValueLayout.JAVA_INT, 0, (int) offsets.byteSize());
                EthernetInterfaces.check(calls, calls.getsockopt(fd, XdpCalls.SOL_XDP, XdpCalls.XDP_MMAP_OFFSETS, offsets, length), interfaceName,
                    "read its rings' offsets");
                // struct xdp_mmap_offsets: rx, tx, fill, completion.
                rings[0] = map(xdp, fd, offsets.asSlice(2 * XdpRing.OFFSET_BYTES), RX_FRAMES, ADDRESS, XdpCalls.PGOFF_FILL_RING, interfaceName);
                rings[1] = map(xdp, fd, offsets.asSlice(3 * XdpRing.OFFSET_BYTES), TX_FRAMES, ADDRESS, XdpCalls.PGOFF_COMPLETION_RING, interfaceName);
                rings[2] = map(xdp, fd, offsets.asSlice(0), RX_FRAMES, RX_DESCRIPTOR, XdpCalls.PGOFF_RX_RING, interfaceName);
                rings[3] = map(xdp, fd, offsets.asSlice(XdpRing.OFFSET_BYTES), TX_FRAMES, RX_DESCRIPTOR, XdpCalls.PGOFF_TX_RING, interfaceName);
                final String mode = bind(calls, fd, index, queue, scratch, interfaceName);
                return new XdpQueue(fd, memory, umem, rings, xdp, mode);
            } catch (final RuntimeException e) {
                for (final XdpRing ring : rings) {
                    if (ring != null) {
                        LinuxCalls.munmap(ring.memory, ring.bytes);
                    }
                }
                LinuxCalls.close(fd);
                memory.close();
                throw e;
            }
        }
    }

    private static void ringSize(final LinuxCalls calls, final int fd, final int ring, final int entries, final Arena scratch, final String interfaceName) {
        final MemorySegment value = scratch.allocate(ValueLayout.JAVA_INT);
        value.set(ValueLayout.JAVA_INT, 0, entries);
        EthernetInterfaces.check(calls, calls.setsockopt(fd, XdpCalls.SOL_XDP, ring, value), interfaceName, "size its rings");
    }

    private static XdpRing map(final XdpCalls xdp, final int fd, final MemorySegment offsets, final int entries, final int descriptorBytes,
        final long pageOffset, final String interfaceName) {
        final long bytes = XdpRing.mappedBytes(offsets, entries, descriptorBytes);
        final MemorySegment mapped = xdp.mmap(fd, bytes, pageOffset);
        if (mapped.address() == -1L) {
            throw new IllegalStateException("interface " + interfaceName + ": cannot map its AF_XDP rings: " + LinuxCalls.describe(xdp.errno()));
        }
        return new XdpRing(mapped.reinterpret(bytes), bytes, offsets, entries, descriptorBytes);
    }

    /** Binds zero-copy where the driver can, else in copy mode; which one it is. */
    private static String bind(final LinuxCalls calls, final int fd, final int index, final int queue, final Arena scratch, final String interfaceName) {
        final MemorySegment address = scratch.allocate(16, 4);
        address.set(ValueLayout.JAVA_SHORT, 0, (short) XdpCalls.AF_XDP);
        address.set(ValueLayout.JAVA_SHORT, 2, (short) (XdpCalls.XDP_ZEROCOPY | XdpCalls.XDP_USE_NEED_WAKEUP));
        address.set(ValueLayout.JAVA_INT, 4, index);
        address.set(ValueLayout.JAVA_INT, 8, queue);
        if (calls.bind(fd, address) == 0) {
            return "zero-copy";
        }
        address.set(ValueLayout.JAVA_SHORT, 2, (short) (XdpCalls.XDP_COPY | XdpCalls.XDP_USE_NEED_WAKEUP));
        // A socket just closed on the queue (a port removed and added again) lets go of it a moment later: tries a few times.
        int bound = calls.bind(fd, address);
        for (int tries = 1; bound != 0 && calls.errno() == XdpCalls.EBUSY && tries < BUSY_TRIES; tries++) {
            java.util.concurrent.locks.LockSupport.parkNanos(BUSY_WAIT_NANOS);
            bound = calls.bind(fd, address);
        }
        if (bound != 0) {
            if (calls.errno() == XdpCalls.EBUSY) {
                throw new IllegalStateException("interface " + interfaceName + ": its receive queue " + queue + " already has an AF_XDP socket (another switch"
                    + " or program holds it: stop that one, or use kind af_packet)");
            }
            EthernetInterfaces.check(calls, -1, interfaceName, "bind an AF_XDP socket to it");
        }
        return "copy mode";
    }

    int receive(final PortSocket.Receiver receiver, final int budget) {
        if (tx.producer() != tx.consumer()) {
            // Frames the last kick left in the send ring (copy mode sends a few dozen per call).
            calls.kickSend(fd);
        }
        final int consumed = rx.consumer();
        final int ready = Math.min(rx.producer() - consumed, budget);
        if (ready <= 0) {
            if (fill.needsWakeup()) {
                calls.kickFill(fd);
            }
            return 0;
        }
        int filled = fill.producer();
        for (int i = 0; i < ready; i++) {
            final long slot = rx.slot(consumed + i);
            final long address = rx.memory.get(ValueLayout.JAVA_LONG, slot);
            final int length = rx.memory.get(ValueLayout.JAVA_INT, slot + 8);
            final int frame = (int) address;
            // The program's receive time sits in the metadata just ahead of the frame, where the offload header goes.
            final long receivedNanos = umem.getLong(frame - XdpProgram.STAMP_BYTES);
            // An XDP frame carries no offload header: one ahead of it in the headroom, saying whether its checksum is
            // left to complete (it zeroes the stamp too, so a frame the program could not stamp reads as unknown).
            PartialChecksum.mark(umem, frame - OffloadHeader.LENGTH, frame, length);
            receiver.onFrame(umem, frame, length, receivedNanos);
            // Every chunk lent for receiving is in the fill ring, with the kernel or in the receive ring: there is room.
            fill.memory.set(ValueLayout.JAVA_LONG, fill.slot(filled++), address & -CHUNK);
        }
        rx.consumer(consumed + ready);
        fill.producer(filled);
        if (fill.needsWakeup()) {
            calls.kickFill(fd);
        }
        return ready;
    }

    int send(final UnsafeBuffer messages, final int from, final int count) {
        reclaim();
        final int produced = tx.producer();
        final int room = Math.min(freeCount, tx.entries() - (produced - tx.consumer()));
        final int sending = Math.min(room, count);
        for (int i = 0; i < sending; i++) {
            final int message = (from + i) * LinuxCalls.MMSGHDR_BYTES;
            final long iovec = messages.getLong(message + LinuxCalls.MSGHDR_IOV) - messages.addressOffset();
            final long start = messages.getLong((int) iovec);
            final int length = (int) messages.getLong((int) iovec + 8) - OffloadHeader.LENGTH;
            outgoing.wrap(start, length + OffloadHeader.LENGTH);
            // Nothing past this socket completes a checksum its sender left to offload.
            OffloadHeader.completeChecksum(outgoing, 0, OffloadHeader.LENGTH, length);
            final int chunk = freeChunks[--freeCount];
            umem.putBytes(chunk, outgoing, OffloadHeader.LENGTH, length);
            final long slot = tx.slot(produced + i);
            tx.memory.set(ValueLayout.JAVA_LONG, slot, chunk);
            tx.memory.set(ValueLayout.JAVA_INT, slot + 8, length);
            tx.memory.set(ValueLayout.JAVA_INT, slot + 12, 0);
        }
        if (sending == 0) {
            return -LinuxCalls.EAGAIN;
        }
        tx.producer(produced + sending);
        if (tx.needsWakeup()) {
            kick(sending);
        }
        return sending;
    }

    /** Copy mode sends at most a few dozen frames a call and says EAGAIN for the rest: calls again while it does. */
    private void kick(final int frames) {
        for (int tries = 0; tries <= frames / 16 + 1; tries++) {
            if (calls.kickSend(fd) == 0 || calls.errno() != LinuxCalls.EAGAIN && calls.errno() != XdpCalls.EBUSY) {
                return;
            }
        }
    }

    /** Takes back the chunks the kernel has sent. */
    private void reclaim() {
        final int consumed = completion.consumer();
        final int done = completion.producer() - consumed;
        for (int i = 0; i < done; i++) {
            freeChunks[freeCount++] = (int) completion.memory.get(ValueLayout.JAVA_LONG, completion.slot(consumed + i));
        }
        if (done > 0) {
            completion.consumer(consumed + done);
        }
    }

    /**
     * Frames dropped with no room since the last call: a full receive ring (rx_ring_full), or too long for a chunk (the
     * rest of rx_dropped). Those that found the fill ring empty (rx_fill_ring_empty_descs, which copy mode also counts in
     * rx_dropped) are kept apart for {@link #fillRingDrops}.
     */
    long ringDrops(final LinuxCalls linux) {
        try (Arena scratch = Arena.ofConfined()) {
            final MemorySegment counts = scratch.allocate(STATISTICS_BYTES, 8);
            final MemorySegment length = scratch.allocate(ValueLayout.JAVA_INT);
            length.set(ValueLayout.JAVA_INT, 0, STATISTICS_BYTES);
            if (linux.getsockopt(fd, XdpCalls.SOL_XDP, XdpCalls.XDP_STATISTICS, counts, length) != 0) {
                return 0;
            }
            final long dropped = counts.get(ValueLayout.JAVA_LONG, 0);
            final long ringFull = counts.get(ValueLayout.JAVA_LONG, RX_RING_FULL);
            final long fillEmpty = counts.get(ValueLayout.JAVA_LONG, RX_FILL_RING_EMPTY);
            final long freshFillEmpty = fillEmpty - fillEmptyRead;
            // The kernel counts an empty fill ring a moment before the drop itself: read between the two, the other
            // drops seem one fewer. Counted once they have grown past what was read, never twice.
            final long otherDropped = dropped - fillEmpty;
            final long fresh = ringFull - ringFullRead + Math.max(0, otherDropped - otherDroppedRead);
            otherDroppedRead = Math.max(otherDroppedRead, otherDropped);
            ringFullRead = ringFull;
            fillEmptyRead = fillEmpty;
            fillEmptyUnread += freshFillEmpty;
            return fresh;
        }
    }

    /** Frames that found the fill ring empty, as the last {@link #ringDrops} read them and not returned here before. */
    long fillRingDrops() {
        final long fresh = fillEmptyUnread;
        fillEmptyUnread = 0;
        return fresh;
    }

    @Override
    public void close() {
        LinuxCalls.munmap(fill.memory, fill.bytes);
        LinuxCalls.munmap(completion.memory, completion.bytes);
        LinuxCalls.munmap(rx.memory, rx.bytes);
        LinuxCalls.munmap(tx.memory, tx.bytes);
        LinuxCalls.close(fd);
        memory.close();
    }
}
