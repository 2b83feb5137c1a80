package io.trimswitch.dataplane.io;

import org.agrona.DirectBuffer;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a classic pcap file with nanosecond timestamps (magic 0xa1b23c4d, link type Ethernet),
 * which Wireshark and tshark read. Timestamps are the model's picoseconds, truncated to ns, after
 * an epoch (0 for a model run; a replay's first capture timestamp, so output lines up with input).
 */
public final class PcapWriter implements Closeable {
    public static final int MAGIC_NANOSECONDS = 0xa1b23c4d;
    public static final int LINKTYPE_ETHERNET = 1;
    public static final int SNAPLEN = 65535;

    private final Path path;
    private final OutputStream out;
    private final byte[] scratch = new byte[16 + SNAPLEN];
    private final long epochNanos;

    public PcapWriter(final Path path) {
        this(path, 0);
    }

    public PcapWriter(final Path path, final long epochNanos) {
        this.path = path;
        this.epochNanos = epochNanos;
        try {
            this.out = new BufferedOutputStream(Files.newOutputStream(path), 1 << 16);
            putIntLe(0, MAGIC_NANOSECONDS);
            putShortLe(4, 2);
            putShortLe(6, 4);
            putIntLe(8, 0);
            putIntLe(12, 0);
            putIntLe(16, SNAPLEN);
            putIntLe(20, LINKTYPE_ETHERNET);
            out.write(scratch, 0, 24);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write pcap " + path + ": " + e.getMessage(), e);
        }
    }

    /** Appends one frame seen at {@code picos}. */
    public void write(final long picos, final DirectBuffer buffer, final int offset, final int length) {
        final long nanos = epochNanos + picos / 1000;
        putIntLe(0, (int) (nanos / 1_000_000_000L));
        putIntLe(4, (int) (nanos % 1_000_000_000L));
        putIntLe(8, length);
        putIntLe(12, length);
        buffer.getBytes(offset, scratch, 16, length);
        try {
            out.write(scratch, 0, 16 + length);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write pcap " + path + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot close pcap " + path + ": " + e.getMessage(), e);
        }
    }

    private void putIntLe(final int index, final int value) {
        scratch[index] = (byte) value;
        scratch[index + 1] = (byte) (value >>> 8);
        scratch[index + 2] = (byte) (value >>> 16);
        scratch[index + 3] = (byte) (value >>> 24);
    }

    private void putShortLe(final int index, final int value) {
        scratch[index] = (byte) value;
        scratch[index + 1] = (byte) (value >>> 8);
    }
}
