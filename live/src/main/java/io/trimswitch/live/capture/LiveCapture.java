package io.trimswitch.live.capture;

import io.trimswitch.dataplane.io.PcapngWriter;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A capture of one port of a running switch, started and stopped while it runs ({@code ctl capture}): the frames the port
 * received from its host and those it sent, trimmed ones as they left, into a pcapng with two interfaces, {@code portN-rx}
 * and {@code portN-tx}. The port's own thread copies each frame into a ring and goes on; a thread of the capture's own
 * writes the file, so the dataplane never waits on a disk. A frame that finds the ring full is counted, not waited for.
 */
public final class LiveCapture implements AutoCloseable {
    private static final int RING_BYTES = 8 << 20;
    private static final int RECEIVED = 1;
    private static final int SENT = 2;
    private static final int TIME_BYTES = Long.BYTES;
    /** How long {@link #close()} waits for the writer to write one more frame before it takes a write for blocked (a pipe no one reads). */
    static final long CLOSE_WITHIN_MILLIS = 1_000;

    private final int port;
    private final Path file;
    private final OneToOneRingBuffer ring;
    private final PcapngWriter writer;
    private final Thread thread;
    /** The port's thread alone adds to it. */
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    /** Why the file could not be written (a full disk), or null; the frames after that are counted as lost. */
    private volatile String failure;
    private final AtomicLong lost = new AtomicLong();
    private volatile boolean stopping;
    /** Made once: the writer thread's loop allocates nothing. */
    private final org.agrona.concurrent.MessageHandler toFile = this::write;

    /**
     * Opens {@code file}; frame times, in the switch's picoseconds, count from {@code epochNanos} since 1970.
     *
     * @throws java.io.UncheckedIOException when the file cannot be written
     */
    public LiveCapture(final int port, final Path file, final long rateBps, final long epochNanos) {
        this(port, file, new PcapngWriter(file, names(port), new long[] {rateBps, rateBps}, epochNanos));
    }

    /** Into {@code channel}, opened on {@code file} by whoever asked for the capture, with their rights. */
    public LiveCapture(final int port, final Path file, final java.nio.channels.FileChannel channel, final long rateBps, final long epochNanos) {
        this(port, file, new PcapngWriter(file, channel, names(port), new long[] {rateBps, rateBps}, epochNanos));
    }

    private static String[] names(final int port) {
        return new String[] {"port" + port + "-rx", "port" + port + "-tx"};
    }

    private LiveCapture(final int port, final Path file, final PcapngWriter writer) {
        this.port = port;
        this.file = file;
        this.writer = writer;
        this.ring = new OneToOneRingBuffer(new UnsafeBuffer(ByteBuffer.allocateDirect(RING_BYTES + RingBufferDescriptor.TRAILER_LENGTH)));
        this.thread = Thread.ofPlatform().name("trimswitch-capture-" + port).daemon().unstarted(this::drain);
        thread.start();
    }

    public int port() {
        return port;
    }

    public Path file() {
        return file;
    }

    /** From the port's thread: a frame the port received from its host at {@code picos}. */
    void received(final long picos, final DirectBuffer buffer, final int offset, final int length) {
        copy(RECEIVED, picos, buffer, offset, length);
    }

    /** From the port's thread: a frame the port sent at {@code picos}. */
    void sent(final long picos, final DirectBuffer buffer, final int offset, final int length) {
        copy(SENT, picos, buffer, offset, length);
    }

    private void copy(final int direction, final long picos, final DirectBuffer buffer, final int offset, final int length) {
        final int claimed = length + TIME_BYTES <= ring.maxMsgLength() ? ring.tryClaim(direction, length + TIME_BYTES) : -1;
        if (claimed < 0) {
            dropped.lazySet(dropped.get() + 1);
            return;
        }
        final MutableDirectBuffer record = ring.buffer();
        record.putLong(claimed, picos);
        record.putBytes(claimed + TIME_BYTES, buffer, offset, length);
        ring.commit(claimed);
    }

    private void write(final int type, final MutableDirectBuffer record, final int at, final int length) {
        if (failure == null) {
            try {
                writer.write(type == RECEIVED ? 0 : 1, record.getLong(at), record, at + TIME_BYTES, length - TIME_BYTES);
                written.lazySet(written.get() + 1);
                return;
            } catch (final java.io.UncheckedIOException e) {
                if (failure == null) {
                    failure = e.getMessage();
                }
            }
        }
        lost.lazySet(lost.get() + 1);
    }

    private void drain() {
        while (true) {
            final boolean last = stopping;
            final int frames = ring.read(toFile);
            if (frames == 0) {
                if (last) {
                    return;
                }
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
            }
        }
    }

    /** Frames in the file once it is closed: after a failure, those the file got before it. */
    public long written() {
        return failure == null ? written.get() : Math.min(written.get(), writer.framesInFile());
    }

    /** Why the file could not be written, or null when it was written whole. */
    public String failure() {
        return failure;
    }

    /** Frames that did not reach the file once it could no longer be written: those still buffered then, and all after. */
    public long lost() {
        return lost.get() + written.get() - written();
    }

    /** Frames that found the ring full because the file could not keep up. */
    public long dropped() {
        return dropped.get();
    }

    /**
     * Writes what the ring still holds and closes the file; call once the port's thread no longer sees this capture.
     * Bounded: a writer that has written no frame for {@link #CLOSE_WITHIN_MILLIS} (blocked on a pipe that its reader
     * has stopped reading) is interrupted, which closes the file; what was not written is then counted as lost.
     */
    @Override
    public void close() {
        stopping = true;
        try {
            // A slow disk that still takes frames is waited for; a write that took none for a while is blocked.
            for (long seen = -1; thread.isAlive() && written.get() != seen; ) {
                seen = written.get();
                thread.join(CLOSE_WITHIN_MILLIS);
            }
            if (thread.isAlive()) {
                failure = "its writer was blocked at the stop, " + CLOSE_WITHIN_MILLIS + " ms without a frame written (a pipe no one reads?)";
                thread.interrupt();
                thread.join(CLOSE_WITHIN_MILLIS);
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            // Not a file channel's write, which an interrupt ends: the writer keeps the file, and ends with the process.
            return;
        }
        try {
            writer.close();
        } catch (final java.io.UncheckedIOException e) {
            // The frames still buffered are gone with the disk's room: the file holds fewer than were written to it.
            if (failure == null) {
                failure = e.getMessage();
            }
        }
    }
}
