package io.trimswitch.switching.capture;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.IoReason;
import io.trimswitch.dataplane.io.PcapWriter;
import org.agrona.DirectBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What each port received from its host and sent to it, as one pcap per port and direction
 * ({@code port07-rx.pcap}, {@code port07-tx.pcap}) for Wireshark. Files are opened at a port's first packet.
 */
public final class PortCaptures implements FrameCapture {
    private final Path directory;
    private final PcapWriter[] received;
    private final PcapWriter[] sent;

    public PortCaptures(final Path directory, final int ports) {
        this.directory = directory;
        try {
            Files.createDirectories(directory);
        } catch (final IOException e) {
            throw new ConfigException("cannot create capture directory " + directory + ": " + IoReason.of(e));
        }
        if (!Files.isWritable(directory)) {
            throw new ConfigException("capture directory " + directory + " is not writable");
        }
        this.received = new PcapWriter[ports];
        this.sent = new PcapWriter[ports];
    }

    @Override
    public void received(final int port, final long picos, final DirectBuffer buffer, final int offset, final int length) {
        if (received[port] == null) {
            received[port] = open(port, "rx");
        }
        received[port].write(picos, buffer, offset, length);
    }

    @Override
    public void sent(final int port, final long picos, final DirectBuffer buffer, final int offset, final int length) {
        if (sent[port] == null) {
            sent[port] = open(port, "tx");
        }
        sent[port].write(picos, buffer, offset, length);
    }

    private PcapWriter open(final int port, final String direction) {
        try {
            return new PcapWriter(directory.resolve(String.format("port%02d-%s.pcap", port, direction)));
        } catch (final UncheckedIOException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    @Override
    public void close() {
        for (final PcapWriter[] writers : new PcapWriter[][] {received, sent}) {
            for (final PcapWriter writer : writers) {
                if (writer != null) {
                    writer.close();
                }
            }
        }
    }
}
