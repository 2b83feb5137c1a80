package io.trimswitch.switching.capture;

import io.trimswitch.config.ConfigException;
import io.trimswitch.dataplane.io.PcapWriter;
import org.agrona.DirectBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What every port sent, one classic pcap per port named {@code <port>_out.pcap} as BMv2 does; opened at a port's first frame. */
public final class EgressPcaps implements FrameCapture {
    private final Path directory;
    private final PcapWriter[] writers;
    private final long epochNanos;

    /** {@code epochNanos}: the wall-clock time of the run's time zero (a replay's first capture timestamp). */
    public EgressPcaps(final Path directory, final int ports, final long epochNanos) {
        this.directory = directory;
        this.epochNanos = epochNanos;
        try {
            Files.createDirectories(directory);
        } catch (final IOException e) {
            throw new ConfigException("cannot create " + directory + ": " + e.getMessage());
        }
        this.writers = new PcapWriter[ports];
    }

    @Override
    public void received(final int port, final long picos, final DirectBuffer buffer, final int offset, final int length) {
    }

    @Override
    public void sent(final int port, final long picos, final DirectBuffer buffer, final int offset, final int length) {
        if (writers[port] == null) {
            try {
                writers[port] = new PcapWriter(directory.resolve(port + "_out.pcap"), epochNanos);
            } catch (final UncheckedIOException e) {
                throw new ConfigException(e.getMessage());
            }
        }
        writers[port].write(picos, buffer, offset, length);
    }

    @Override
    public void close() {
        for (final PcapWriter writer : writers) {
            if (writer != null) {
                writer.close();
            }
        }
    }
}
