package io.trimswitch.cli;

import io.trimswitch.dataplane.io.CaptureIndex;
import io.trimswitch.dataplane.io.PcapngWriter;
import io.trimswitch.dataplane.packet.WorkloadFrames;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Captures built in the test and a way to read frames back, for the replay tests. */
final class ReplayFixtures {
    private ReplayFixtures() {
    }

    /**
     * A pcapng with interfaces 0..{@code senders} where interfaces 0..senders-1 each send {@code packets}
     * 1500-byte NDP data packets to port {@code senders}, {@code gapNanos} apart; plus 5 non-trimmable
     * 300-byte frames from the last interface to port 9.
     */
    static Path incast(final Path file, final int senders, final int packets, final long gapNanos) throws IOException {
        final String[] names = new String[senders + 1];
        final long[] speeds = new long[senders + 1];
        Arrays.fill(names, "host");
        Arrays.fill(speeds, 100_000_000_000L);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[1500]);
        try (PcapngWriter writer = new PcapngWriter(file, names, speeds, 1_700_000_000_000_000_000L)) {
            for (int seq = 0; seq < packets; seq++) {
                for (int sender = 0; sender < senders; sender++) {
                    WorkloadFrames.writeData(frame, 0, 1500, sender, senders, sender, seq, 10, 666);
                    for (int i = 50; i < 1500; i++) {
                        frame.putByte(i, (byte) (i * 31 + seq + sender));
                    }
                    writer.write(sender, seq * gapNanos * 1000, frame, 0, 1500);
                }
            }
            for (int seq = 0; seq < 5; seq++) {
                WorkloadFrames.writeData(frame, 0, 300, senders, 9, senders, seq, 0, 5000);
                writer.write(senders, seq * 1_000_000L, frame, 0, 300);
            }
        }
        return file;
    }

    /**
     * A pcapng in which interfaces 0..3 each send {@code packets} 1500-byte NDP data packets (DSCP 10) to port 4 back
     * to back, and interface 5 sends as many 1500-byte UDP packets with DSCP 0, which no rule makes trimmable (TCP's
     * place), to port 4 too: five ports at line rate into one.
     */
    static Path twoClasses(final Path file, final int packets) throws IOException {
        final String[] names = new String[6];
        final long[] speeds = new long[6];
        Arrays.fill(names, "host");
        Arrays.fill(speeds, 100_000_000_000L);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[1500]);
        try (PcapngWriter writer = new PcapngWriter(file, names, speeds, 1_700_000_000_000_000_000L)) {
            for (int seq = 0; seq < packets; seq++) {
                for (int sender = 0; sender < 4; sender++) {
                    WorkloadFrames.writeData(frame, 0, 1500, sender, 4, sender, seq, 10, 666);
                    writer.write(sender, 0, frame, 0, 1500);
                }
                WorkloadFrames.writeData(frame, 0, 1500, 5, 4, 5, seq, 0, 5000);
                writer.write(5, 0, frame, 0, 1500);
            }
        }
        return file;
    }

    /** Every frame of a capture, by interface, in file order. */
    static List<List<byte[]>> frames(final Path file, final int interfaces) throws IOException {
        final byte[] bytes = Files.readAllBytes(file);
        final CaptureIndex index = CaptureIndex.of(new UnsafeBuffer(bytes), bytes.length, file.toString());
        final List<List<byte[]>> byInterface = new ArrayList<>();
        for (int i = 0; i < interfaces; i++) {
            byInterface.add(new ArrayList<>());
        }
        for (int i = 0; i < index.packets(); i++) {
            final int start = (int) index.dataOffset(i);
            byInterface.get(index.interfaceId(i)).add(Arrays.copyOfRange(bytes, start, start + index.length(i)));
        }
        return byInterface;
    }

    /** Timestamps of the frames on interface {@code iface}, in file order. */
    static long[] timestamps(final Path file, final int iface) throws IOException {
        final byte[] bytes = Files.readAllBytes(file);
        final CaptureIndex index = CaptureIndex.of(new UnsafeBuffer(bytes), bytes.length, file.toString());
        return java.util.stream.IntStream.range(0, index.packets()).filter(i -> index.interfaceId(i) == iface)
            .mapToLong(index::timestampNanos).toArray();
    }
}
