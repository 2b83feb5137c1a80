package io.trimswitch.dataplane.io;

import org.agrona.DirectBuffer;

import java.io.Closeable;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Writes one pcapng section (little-endian) with an Interface Description Block per switch port —
 * its name and speed, nanosecond timestamps — and an Enhanced Packet Block per frame on its
 * interface. Nothing host-specific goes in, so the same frames give the same bytes.
 */
public final class PcapngWriter implements Closeable {
    private static final int SHB = 0x0A0D0D0A;
    private static final int IDB = 1;
    private static final int EPB = 6;
    private static final int EPB_OVERHEAD = 32;
    private static final int IF_NAME = 2;
    private static final int IF_SPEED = 8;
    private static final int IF_TSRESOL = 9;
    private static final int SHB_USERAPPL = 4;

    private final CaptureOutput out;
    private final int interfaces;
    private final long epochNanos;

    /**
     * Opens {@code path} and describes {@code names.length} interfaces, interface i being {@code names[i]} at
     * {@code bitsPerSecond[i]}; frame timestamps count from {@code epochNanos} since 1970.
     */
    public PcapngWriter(final Path path, final String[] names, final long[] bitsPerSecond, final long epochNanos) {
        this(new CaptureOutput(path), names, bitsPerSecond, epochNanos);
    }

    /** The same into {@code channel}, already open on {@code path} (which names it in errors). */
    public PcapngWriter(final Path path, final java.nio.channels.FileChannel channel, final String[] names, final long[] bitsPerSecond,
        final long epochNanos) {
        this(new CaptureOutput(path, channel), names, bitsPerSecond, epochNanos);
    }

    private PcapngWriter(final CaptureOutput out, final String[] names, final long[] bitsPerSecond, final long epochNanos) {
        this.out = out;
        this.interfaces = names.length;
        this.epochNanos = epochNanos;
        final byte[] application = "trimswitch".getBytes(StandardCharsets.UTF_8);
        ByteBuffer block = out.reserve(28 + option(application.length) + 4 + 4);
        int start = begin(block, SHB);
        block.putInt(0x1A2B3C4D).putShort((short) 1).putShort((short) 0).putLong(-1L);
        option(block, SHB_USERAPPL, application);
        endWithOptions(block, start);
        for (int i = 0; i < names.length; i++) {
            final byte[] name = names[i].getBytes(StandardCharsets.UTF_8);
            block = out.reserve(16 + option(name.length) + option(8) + option(1) + 4 + 4);
            start = begin(block, IDB);
            block.putShort((short) CaptureIndex.LINKTYPE_ETHERNET).putShort((short) 0).putInt(0);
            option(block, IF_NAME, name);
            option(block, IF_SPEED, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(bitsPerSecond[i]).array());
            option(block, IF_TSRESOL, new byte[] {9});
            endWithOptions(block, start);
        }
    }

    /** Appends a frame that left interface {@code iface} at {@code picos} (written with nanosecond resolution). */
    public void write(final int iface, final long picos, final DirectBuffer buffer, final int offset, final int length) {
        if (iface < 0 || iface >= interfaces) {
            throw new IllegalArgumentException("interface " + iface + " was not described");
        }
        final long nanos = epochNanos + picos / 1000;
        final int padded = (length + 3) & ~3;
        final ByteBuffer block = out.reserve(EPB_OVERHEAD + padded);
        block.putInt(EPB).putInt(EPB_OVERHEAD + padded).putInt(iface).putInt((int) (nanos >>> 32)).putInt((int) nanos)
            .putInt(length).putInt(length);
        out.putFrame(buffer, offset, length);
        out.pad();
        block.putInt(EPB_OVERHEAD + padded);
        out.frameBuffered();
    }

    /** Frames known to be in the file: after a failed write, those written before it. */
    public long framesInFile() {
        return out.framesFlushed();
    }

    private static int begin(final ByteBuffer block, final int type) {
        final int start = block.position();
        block.putInt(type).putInt(0);
        return start;
    }

    /** Closes the option list with opt_endofopt and the block with its length, front and back. */
    private static void endWithOptions(final ByteBuffer block, final int start) {
        block.putShort((short) 0).putShort((short) 0);
        final int length = block.position() - start + 4;
        block.putInt(start + 4, length);
        block.putInt(length);
    }

    private static int option(final int valueLength) {
        return 4 + ((valueLength + 3) & ~3);
    }

    private static void option(final ByteBuffer block, final int code, final byte[] value) {
        block.putShort((short) code).putShort((short) value.length).put(value);
        while ((block.position() & 3) != 0) {
            block.put((byte) 0);
        }
    }

    @Override
    public void close() {
        out.close();
    }
}
