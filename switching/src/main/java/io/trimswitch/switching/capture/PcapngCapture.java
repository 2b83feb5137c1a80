package io.trimswitch.switching.capture;

import io.trimswitch.config.ConfigException;
import io.trimswitch.dataplane.io.PcapngWriter;
import org.agrona.DirectBuffer;

import java.io.UncheckedIOException;
import java.nio.file.Path;

/** What every port sent, in one pcapng: an interface per switch port, each frame stamped when it left. */
public final class PcapngCapture implements FrameCapture {
    private final PcapngWriter writer;

    /** {@code epochNanos}: the wall-clock time of the run's time zero (a replay's first capture timestamp). */
    public PcapngCapture(final Path file, final int ports, final long bitsPerSecond, final long epochNanos) {
        final String[] names = new String[ports];
        final long[] speeds = new long[ports];
        for (int port = 0; port < ports; port++) {
            names[port] = "port" + port;
            speeds[port] = bitsPerSecond;
        }
        try {
            writer = new PcapngWriter(file, names, speeds, epochNanos);
        } catch (final UncheckedIOException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    @Override
    public void received(final int port, final long picos, final DirectBuffer buffer, final int offset, final int length) {
    }

    @Override
    public void sent(final int port, final long picos, final DirectBuffer buffer, final int offset, final int length) {
        writer.write(port, picos, buffer, offset, length);
    }

    @Override
    public void close() {
        writer.close();
    }
}
