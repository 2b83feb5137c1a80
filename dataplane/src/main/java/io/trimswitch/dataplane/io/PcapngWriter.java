package io.trimswitch.dataplane.io;

import org.agrona.DirectBuffer;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
    private static final int IF_NAME = 2;
    private static final int IF_SPEED = 8;
    private static final int IF_TSRESOL = 9;
    private static final int SHB_USERAPPL = 4;

    private final Path path;
    private final OutputStream out;
    private final ByteBuffer scratch = ByteBuffer.allocate(65_536 + 64).order(ByteOrder.LITTLE_ENDIAN);
    private final byte[] frame = new byte[65_536];
    private final int interfaces;
    private final long epochNanos;

    /**
     * Opens {@code path} and describes {@code names.length} interfaces, interface i being {@code names[i]} at
     * {@code bitsPerSecond[i]}; frame timestamps count from {@code epochNanos} since 1970.
     */
    public PcapngWriter(final Path path, final String[] names, final long[] bitsPerSecond, final long epochNanos) {
        this.path = path;
        this.epochNanos = epochNanos;
        this.interfaces = names.length;
        try {
            this.out = new BufferedOutputStream(Files.newOutputStream(path), 1 << 16);
            scratch.clear();
            final int start = begin(SHB);
            scratch.putInt(0x1A2B3C4D).putShort((short) 1).putShort((short) 0).putLong(-1L);
            option(SHB_USERAPPL, "trimswitch".getBytes(StandardCharsets.UTF_8));
            endWithOptions(start);
            for (int i = 0; i < names.length; i++) {
                final int idb = begin(IDB);
                scratch.putShort((short) CaptureIndex.LINKTYPE_ETHERNET).putShort((short) 0).putInt(0);
                option(IF_NAME, names[i].getBytes(StandardCharsets.UTF_8));
                option(IF_SPEED, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(bitsPerSecond[i]).array());
                option(IF_TSRESOL, new byte[] {9});
                endWithOptions(idb);
            }
            flushScratch();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write " + path + ": " + e.getMessage(), e);
        }
    }

    /** Appends a frame that left interface {@code iface} at {@code picos} (written with nanosecond resolution). */
    public void write(final int iface, final long picos, final DirectBuffer buffer, final int offset, final int length) {
        if (iface < 0 || iface >= interfaces) {
            throw new IllegalArgumentException("interface " + iface + " was not described");
        }
        final long nanos = epochNanos + picos / 1000;
        scratch.clear();
        final int start = begin(EPB);
        scratch.putInt(iface).putInt((int) (nanos >>> 32)).putInt((int) nanos).putInt(length).putInt(length);
        buffer.getBytes(offset, frame, 0, length);
        scratch.put(frame, 0, length);
        pad();
        end(start);
        try {
            flushScratch();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write " + path + ": " + e.getMessage(), e);
        }
    }

    private int begin(final int type) {
        final int start = scratch.position();
        scratch.putInt(type).putInt(0);
        return start;
    }

    /** Closes the option list with opt_endofopt and the block with its length, front and back. */
    private void endWithOptions(final int start) {
        scratch.putShort((short) 0).putShort((short) 0);
        end(start);
    }

    private void end(final int start) {
        final int length = scratch.position() - start + 4;
        scratch.putInt(start + 4, length);
        scratch.putInt(length);
    }

    private void option(final int code, final byte[] value) {
        scratch.putShort((short) code).putShort((short) value.length).put(value);
        pad();
    }

    private void pad() {
        while ((scratch.position() & 3) != 0) {
            scratch.put((byte) 0);
        }
    }

    private void flushScratch() throws IOException {
        out.write(scratch.array(), 0, scratch.position());
        scratch.clear();
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot close " + path + ": " + e.getMessage(), e);
        }
    }
}
