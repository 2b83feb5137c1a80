package io.trimswitch.interfaces.afxdp;

import io.trimswitch.dataplane.codec.OffloadHeader;
import io.trimswitch.dataplane.codec.PartialChecksum;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.PoolPartition;
import io.trimswitch.dataplane.packet.UmemShare;
import io.trimswitch.interfaces.EthernetInterfaces;
import io.trimswitch.interfaces.LinuxCalls;
import io.trimswitch.interfaces.PortSocket;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One receive queue of an {@code af_xdp} port: an AF_XDP socket bound to it over a UMEM that is a piece of the packet
 * pool ({@link UmemShare}), the piece of the thread that reads the queue, registered once and shared by its other queues
 * ({@link SharedUmem}). Its fill ring is kept topped up with free buffers of that piece, so a frame the kernel writes is
 * a pool buffer handed up as it is ({@link PortSocket.Receiver#onBuffer}); a frame to send that is a buffer of the
 * piece goes on the send ring as it is, and others are copied into a free one. Every buffer lent to the kernel is
 * tracked ({@link LentFrames}) and comes back through the completion ring, or when the queue closes. Without a piece
 * of a switch's pool (a port opened on its own) the queue has a small pool of its own and hands each frame up to be
 * copied. The port's XDP program ({@link XdpProgram}) hands the socket every frame of its queue before the kernel makes an
 * skb of it. A frame arrives with no offload header (an XDP frame has none): one is written ahead of it, marking a checksum its sender left to offload; one sent
 * leaves whole and complete, its checksum finished here if its sender left it to offload.
 */
final class XdpQueue implements AutoCloseable {
    static final int RX_FRAMES = 4096;
    static final int TX_FRAMES = 1024;
    /**
     * Buffers lent for receiving, in the fill ring and the receive ring together: what arrives while the queue's thread is
     * off its core (at 100,000 frames/s, 20 ms) waits in them instead of being dropped. Several queues share a thread's
     * piece, so each keeps half a ring, and one flooded queue cannot take the others' buffers.
     */
    static final int FILL_TARGET = RX_FRAMES / 2;
    /** The buffers of a queue's own pool, when it has no piece of a switch's: its fill ring's and its send ring's. */
    private static final int OWN_FRAMES = 4 * PacketPool.SLOTS_PER_SLAB;
    static final int LONGEST_FRAME = UmemShare.LONGEST_FRAME;
    private static final int RX_DESCRIPTOR = 16;
    private static final int ADDRESS = 8;
    /** struct xdp_statistics: rx_dropped, then rx_invalid_descs, tx_invalid_descs, rx_ring_full, rx_fill_ring_empty_descs. */
    private static final int STATISTICS_BYTES = 48;
    private static final int RX_RING_FULL = 24;
    private static final int RX_FILL_RING_EMPTY = 32;

    private final UmemShare share;
    private final PacketPool pool;
    private final SharedUmem shared;
    private final LentFrames lent;
    /** Of those, the buffers lent for receiving: in the fill ring, or filled and in the receive ring. */
    private int receiving;
    /** Whether received frames are handed up as pool buffers (the share is the receiver's pool's), else to be copied. */
    private final boolean handsBuffers;
    private final XdpRing fill;
    private final XdpRing completion;
    private final XdpRing rx;
    private final XdpRing tx;
    final int fd;
    private final XdpCalls calls;
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

    private XdpQueue(final int fd, final UmemShare share, final boolean handsBuffers, final XdpRing[] rings, final XdpCalls calls,
        final String mode) {
        this.fd = fd;
        this.share = share;
        this.pool = share.pool();
        this.shared = SharedUmem.of(share);
        this.lent = new LentFrames(share);
        this.handsBuffers = handsBuffers;
        this.fill = rings[0];
        this.completion = rings[1];
        this.rx = rings[2];
        this.tx = rings[3];
        this.calls = calls;
        this.mode = mode;
    }

    /**
     * Opens an AF_XDP socket on receive queue {@code queue} of the interface at {@code index}, over {@code frames} (the
     * piece of the pool of the thread that reads the queue), or over a pool of its own when null.
     *
     * @throws IllegalStateException with one line naming the interface, the cause and the fix
     */
    static XdpQueue open(final String interfaceName, final int index, final int queue, final LinuxCalls calls, final XdpCalls xdp,
        final UmemShare frames) {
        final UmemShare share = frames != null ? frames : ownShare();
        try (Arena scratch = Arena.ofConfined()) {
            final int fd = calls.socket(XdpCalls.AF_XDP, LinuxCalls.SOCK_RAW | LinuxCalls.SOCK_CLOEXEC, 0);
            if (fd < 0) {
                final int errno = calls.errno();
                throw new IllegalStateException("interface " + interfaceName + ": cannot open an AF_XDP socket: " + LinuxCalls.describe(errno)
                    + (errno == XdpCalls.EAFNOSUPPORT ? " (the kernel has no CONFIG_XDP_SOCKETS: use kind af_packet)"
                        : errno == LinuxCalls.EPERM ? " (needs CAP_NET_RAW: run as root)" : ""));
            }
            final XdpRing[] rings = new XdpRing[4];
            try {
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
                final String mode = SharedUmem.of(share).bind(fd, index, queue, calls, interfaceName);
                // The fill ring is topped up by the queue's reader, on its thread, at its first read.
                return new XdpQueue(fd, share, frames != null, rings, xdp, mode);
            } catch (final RuntimeException e) {
                unmap(rings);
                LinuxCalls.close(fd);
                throw e;
            }
        }
    }

    /** A pool of the queue's own, for a port opened on its own: its buffers taken and freed on the queue's thread alone. */
    private static UmemShare ownShare() {
        final PacketPool own = PacketPool.withHeadroom(1, LONGEST_FRAME, OffloadHeader.LENGTH, OWN_FRAMES);
        final PoolPartition frames = new PoolPartition(own, own.umemFirst(), OWN_FRAMES);
        return new UmemShare(own, own.umemFirst(), OWN_FRAMES, frames::allocate, frames::free);
    }

    private static void unmap(final XdpRing[] rings) {
        for (final XdpRing ring : rings) {
            if (ring != null) {
                LinuxCalls.munmap(ring.memory, ring.bytes);
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

    int receive(final PortSocket.Receiver receiver, final int budget) {
        if (tx.producer() != tx.consumer()) {
            // Frames the last kick left in the send ring (copy mode sends a few dozen per call).
            calls.kickSend(fd);
        }
        if (completion.producer() != completion.consumer()) {
            // Buffers sent since the last send: back to the pool now, not when the port next sends.
            reclaim();
        }
        final int consumed = rx.consumer();
        final int ready = Math.max(0, Math.min(rx.producer() - consumed, budget));
        for (int i = 0; i < ready; i++) {
            final long slot = rx.slot(consumed + i);
            final int handle = share.handleAt(rx.memory.get(ValueLayout.JAVA_LONG, slot));
            final int length = rx.memory.get(ValueLayout.JAVA_INT, slot + 8);
            lent.returned(handle);
            receiving--;
            final UnsafeBuffer buffer = pool.buffer(handle);
            final int frame = pool.offset(handle);
            // The program's receive time sits in the metadata just ahead of the frame, where the offload header goes.
            final long receivedNanos = buffer.getLong(frame - XdpProgram.STAMP_BYTES);
            // An XDP frame carries no offload header: one ahead of it in the headroom, saying whether its checksum is
            // left to complete (it zeroes the stamp too, so a frame the program could not stamp reads as unknown).
            PartialChecksum.mark(buffer, frame - OffloadHeader.LENGTH, frame, length);
            if (!handsBuffers) {
                receiver.onFrame(buffer, frame, length, receivedNanos);
                lend(handle);
            } else if (!receiver.onBuffer(handle, length, receivedNanos)) {
                lend(handle);
            }
        }
        if (ready > 0) {
            rx.consumer(consumed + ready);
        }
        topUp();
        if (fill.needsWakeup()) {
            calls.kickFill(fd);
        }
        return ready;
    }

    /** Whether its piece ran out of buffers to lend the fill ring at the last top-up. */
    boolean waitsForBuffers() {
        return handsBuffers && receiving < FILL_TARGET;
    }

    /** Lends free buffers of the piece to the fill ring until {@link #FILL_TARGET} are lent for receiving, or none is free. */
    private void topUp() {
        final int produced = fill.producer();
        int filled = produced;
        for (; receiving < FILL_TARGET; receiving++) {
            final int handle = share.allocate();
            if (handle == PacketPool.NO_PACKET) {
                break;
            }
            lent.lend(handle);
            fill.memory.set(ValueLayout.JAVA_LONG, fill.slot(filled++), share.chunk(handle));
        }
        if (filled != produced) {
            fill.producer(filled);
        }
    }

    /** Gives the kernel back a buffer it filled that was not kept: to receive into again. */
    private void lend(final int handle) {
        final int produced = fill.producer();
        lent.lend(handle);
        receiving++;
        fill.memory.set(ValueLayout.JAVA_LONG, fill.slot(produced), share.chunk(handle));
        fill.producer(produced + 1);
    }

    /**
     * Sends as {@link PortSocket#send} says; a frame in a buffer of this queue's piece goes as it is, and its message's
     * iovec base is set to 0: the buffer is the queue's until the kernel has sent it.
     */
    int send(final UnsafeBuffer messages, final int from, final int count) {
        reclaim();
        final int produced = tx.producer();
        final int room = Math.min(count, tx.entries() - (produced - tx.consumer()));
        int sending = 0;
        while (sending < room) {
            final int message = (from + sending) * LinuxCalls.MMSGHDR_BYTES;
            final int iovec = (int) (messages.getLong(message + LinuxCalls.MSGHDR_IOV) - messages.addressOffset());
            final long start = messages.getLong(iovec);
            final int length = (int) messages.getLong(iovec + 8) - OffloadHeader.LENGTH;
            outgoing.wrap(start, length + OffloadHeader.LENGTH);
            // Nothing past this socket completes a checksum its sender left to offload.
            OffloadHeader.completeChecksum(outgoing, 0, OffloadHeader.LENGTH, length);
            final int handle;
            final long place;
            if (share.holdsAddress(start)) {
                handle = share.handleAt(start - share.address());
                place = start + OffloadHeader.LENGTH - share.address();
                messages.putLong(iovec, 0L);
            } else {
                handle = share.allocate();
                if (handle == PacketPool.NO_PACKET) {
                    break;
                }
                place = share.chunk(handle) + UmemShare.FRAME_START;
                pool.buffer(handle).putBytes(pool.offset(handle), outgoing, OffloadHeader.LENGTH, length);
            }
            lent.lend(handle);
            final long slot = tx.slot(produced + sending);
            tx.memory.set(ValueLayout.JAVA_LONG, slot, place);
            tx.memory.set(ValueLayout.JAVA_INT, slot + 8, length);
            tx.memory.set(ValueLayout.JAVA_INT, slot + 12, 0);
            sending++;
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

    /** Takes back the buffers the kernel has sent, each to the pool. */
    private void reclaim() {
        final int consumed = completion.consumer();
        final int done = completion.producer() - consumed;
        for (int i = 0; i < done; i++) {
            final int handle = share.handleAt(completion.memory.get(ValueLayout.JAVA_LONG, completion.slot(consumed + i)));
            lent.returned(handle);
            share.release(handle);
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

    /** Buffers lent to the kernel now: in the fill, receive and send rings. */
    int lent() {
        return lent.count();
    }

    /** Closes the socket, then gives back every buffer it had lent: the kernel has let go of them. */
    @Override
    public void close() {
        shared.leave(fd);
        unmap(new XdpRing[] {fill, completion, rx, tx});
        LinuxCalls.close(fd);
        lent.releaseAll();
    }
}
