package io.trimswitch.interfaces;

import io.trimswitch.dataplane.codec.OffloadHeader;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * What a port on a Linux interface reads its frames from and sends them through, as a {@link SocketKind} opens it (an
 * AF_PACKET ring, an AF_XDP socket). The ports' thread alone receives and sends; any thread may read its kernel-side drops.
 */
public interface PortSocket extends AutoCloseable {
    /** The longest frame read whole apart from a receive ring, offload header included. */
    int LONG_FRAME_BYTES = 65_600 + OffloadHeader.LENGTH;

    /** What became of a frame taken off the receive side. */
    interface Receiver {
        /**
         * A whole frame at {@code frame}, its offload header at {@code frame - OffloadHeader.LENGTH}, which the kernel
         * received at host time {@code receivedNanos} (CLOCK_MONOTONIC; {@code Burst.UNSTAMPED}: the kind cannot tell).
         */
        void onFrame(UnsafeBuffer ring, int frame, int length, long receivedNanos);

        /**
         * A whole frame the kernel wrote straight into buffer {@code handle} of the receiver's pool, its offload header
         * ahead of it (a kind that lends the kernel pool buffers), received at {@code receivedNanos} as for
         * {@link #onFrame}: taken as it is, no copy. False when it was dropped (counted): the buffer is still the caller's.
         */
        default boolean onBuffer(final int handle, final int length, final long receivedNanos) {
            throw new UnsupportedOperationException("a receiver of copies only");
        }

        /** A frame the kernel cut to the ring's slot. */
        void onTruncated();

        /** A frame whose VLAN tag the kernel took off into the ring's header. */
        void onVlanStripped();
    }

    String name();

    int index();

    /** The descriptor the ports' thread sleeps on until a frame comes. */
    int fd();

    /** The descriptors the ports' thread sleeps on: {@link #fd()}, or one per receive queue. */
    default int[] wakeFds() {
        return new int[] {fd()};
    }

    /** Read at opening, then as the kernel's link notifications tell; the ports' thread alone changes it. */
    int mtu();

    void mtu(int value);

    /** The longest frame it carries either way, whatever the interface's MTU. */
    default int longestFrame() {
        return Integer.MAX_VALUE;
    }

    /** Whether frames cross it whole with their offload header (segmentation and checksum left to the kernel). */
    boolean carriesOffload();

    /**
     * Hands up to {@code budget} received frames to {@code receiver}, oldest first; how many there were. A kind that
     * stamps frames with the wall clock converts with {@code calls.clocks()}, sampled this turn.
     */
    int receive(Receiver receiver, int budget, LinuxCalls calls, UnsafeBuffer longFrame);

    /**
     * Sends messages {@code from} to {@code from + count} of {@code messages} (mmsghdrs, each with one iovec over a
     * frame's offload header and the frame) without blocking; how many went, or minus the errno of the failure. A kind
     * that sends a frame straight from its pool buffer takes the buffer, to give it back once the kernel has sent it, and
     * says so by setting that message's iovec base to 0.
     */
    int send(LinuxCalls calls, UnsafeBuffer messages, int from, int count);

    /** The receive queues it reads, each on a socket of its own: 1 unless its kind reads several. */
    default int queues() {
        return 1;
    }

    /**
     * Hands up to {@code budget} frames of receive queue {@code queue} alone to {@code receiver}, oldest first; how many
     * there were. Each queue's receive side has one reader: another thread may read another queue meanwhile.
     */
    default int receive(final int queue, final Receiver receiver, final int budget, final LinuxCalls calls, final UnsafeBuffer longFrame) {
        return receive(receiver, budget, calls, longFrame);
    }

    /** The descriptor a thread sleeps on until receive queue {@code queue} has a frame. */
    default int queueFd(final int queue) {
        return fd();
    }

    /**
     * Frames the kernel dropped for want of room on the receive side since the last call: a full receive ring, and for
     * a kind with a fill ring, frames too long for a buffer; not those {@link #fillRingDrops()} counts.
     */
    long ringDrops(LinuxCalls calls);

    /**
     * Frames the kernel dropped because the fill ring it takes arrival buffers from was empty, as read by the last
     * {@link #ringDrops} and not returned here yet; 0 for a kind without one.
     */
    default long fillRingDrops() {
        return 0;
    }

    /**
     * Whether a receive queue has fewer buffers lent to the kernel than it keeps, its pool having none free: no frame can
     * wake the thread while that lasts, so the thread looks again soon rather than sleeping until woken.
     */
    default boolean waitsForBuffers() {
        return false;
    }

    /** Its kind and how the kernel serves it, for the start-up line: {@code AF_PACKET}, {@code AF_XDP copy mode, driver mode}. */
    String describe();

    @Override
    void close();
}
