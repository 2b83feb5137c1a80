package io.trimswitch.dataplane.io;

import org.agrona.DirectBuffer;

import java.io.Closeable;
import java.nio.ByteBuffer;
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

    private final CaptureOutput out;
    private final long epochNanos;

    public PcapWriter(final Path path) {
        this(path, 0);
    }

    public PcapWriter(final Path path, final long epochNanos) {
        this.epochNanos = epochNanos;
        this.out = new CaptureOutput(path);
        out.reserve(24).putInt(MAGIC_NANOSECONDS).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0)
            .putInt(SNAPLEN).putInt(LINKTYPE_ETHERNET);
    }

    /** Appends one frame seen at {@code picos}. */
    public void write(final long picos, final DirectBuffer buffer, final int offset, final int length) {
        final long nanos = epochNanos + picos / 1000;
        final ByteBuffer record = out.reserve(16 + length);
        record.putInt((int) (nanos / 1_000_000_000L)).putInt((int) (nanos % 1_000_000_000L)).putInt(length).putInt(length);
        out.putFrame(buffer, offset, length);
    }

    @Override
    public void close() {
        out.close();
    }
}
