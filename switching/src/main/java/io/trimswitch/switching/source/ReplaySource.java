package io.trimswitch.switching.source;

import io.trimswitch.config.ConfigException;
import io.trimswitch.dataplane.io.CaptureFormatException;
import io.trimswitch.dataplane.io.CaptureIndex;
import io.trimswitch.dataplane.io.InputFiles;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.time.LinkRate;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Packets from capture files, entering the switch in virtual time. Each file is memory-mapped and
 * indexed (and so fully checked) before the run; frames are copied from the map into the switch's
 * buffers as they arrive. Each ingress port is one flow of the report.
 *
 * <p>A packet starts arriving at its capture timestamp (relative to the earliest packet, divided by
 * the speed-up) or, at line rate, right after the previous packet on its port; either way a port never
 * receives faster than its line rate, and a packet has arrived once its last bit has.
 */
public final class ReplaySource implements TrafficSource {
    /** Capture timestamps, or back to back at each port's rate. */
    public enum Timing {
        CAPTURE,
        LINE_RATE
    }

    /** A file to replay and the port its packets enter on; null port: a pcapng whose interface IDs are the ports. */
    public record Input(Path file, Integer port) {
    }

    private final String description;
    private final UnsafeBuffer[] files;
    private final long[] arrival;
    private final int[] file;
    private final long[] offset;
    private final int[] length;
    private final int[] port;
    private final int[] flowOfPort;
    private final int[] portOfFlow;
    private final long[] sequence;
    private final long baseNanos;
    private int next;

    public ReplaySource(final List<Input> inputs, final int ports, final LinkRate portRate, final Timing timing, final double speed) {
        if (inputs.isEmpty()) {
            throw new ConfigException("nothing to replay: give at least one --in FILE or --in PORT=FILE");
        }
        if (!(speed > 0) || Double.isInfinite(speed)) {
            throw new ConfigException("--speed must be a positive number, got " + speed);
        }
        files = new UnsafeBuffer[inputs.size()];
        final List<CaptureIndex> indexes = indexAll(inputs, ports, files);
        description = "replay:" + inputs.stream().map(i -> (i.port() == null ? "" : i.port() + "=") + i.file().getFileName())
            .collect(Collectors.joining(","));
        baseNanos = earliestNanos(indexes);
        final Arrivals unsorted = arrivals(inputs, indexes, ports, portRate, timing, speed, baseNanos);
        final int total = unsorted.time.length;
        final long[] unsortedArrival = unsorted.time;
        final int[] unsortedFile = unsorted.file;
        final int[] unsortedIndex = unsorted.index;
        final int[] order = arrivalOrder(unsorted.time, unsorted.port);
        arrival = new long[total];
        file = new int[total];
        offset = new long[total];
        length = new int[total];
        port = new int[total];
        sequence = new long[total];
        flowOfPort = new int[ports];
        Arrays.fill(flowOfPort, -1);
        final List<Integer> flowPorts = new ArrayList<>();
        final long[] perPortSequence = new long[ports];
        for (int k = 0; k < total; k++) {
            final int j = order[k];
            final CaptureIndex index = indexes.get(unsortedFile[j]);
            final int i = unsortedIndex[j];
            arrival[k] = unsortedArrival[j];
            file[k] = unsortedFile[j];
            offset[k] = index.dataOffset(i);
            length[k] = index.length(i);
            port[k] = inputs.get(file[k]).port() != null ? inputs.get(file[k]).port() : index.interfaceId(i);
            sequence[k] = perPortSequence[port[k]]++;
            if (flowOfPort[port[k]] < 0) {
                flowOfPort[port[k]] = flowPorts.size();
                flowPorts.add(port[k]);
            }
        }
        portOfFlow = flowPorts.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Maps and indexes (and so fully checks) every input, before anything runs. */
    private static List<CaptureIndex> indexAll(final List<Input> inputs, final int ports, final UnsafeBuffer[] files) {
        final List<CaptureIndex> indexes = new ArrayList<>();
        for (int f = 0; f < inputs.size(); f++) {
            final Input input = inputs.get(f);
            files[f] = map(input.file());
            final CaptureIndex index = CaptureIndex.of(files[f], files[f].capacity(), input.file().toString());
            checkPorts(input, index, ports);
            indexes.add(index);
        }
        return indexes;
    }

    /** The earliest capture timestamp of all inputs: switch time zero. */
    private static long earliestNanos(final List<CaptureIndex> indexes) {
        long base = Long.MAX_VALUE;
        for (final CaptureIndex index : indexes) {
            for (int i = 0; i < index.packets(); i++) {
                base = Math.min(base, index.timestampNanos(i));
            }
        }
        return base == Long.MAX_VALUE ? 0 : base;
    }

    /** Every packet's arrival, port, file and place in that file, in file order. */
    private record Arrivals(long[] time, int[] port, int[] file, int[] index) {
    }

    /** When each packet has fully arrived: at its timestamp (or back to back), never faster than its port's rate. */
    private static Arrivals arrivals(final List<Input> inputs, final List<CaptureIndex> indexes, final int ports, final LinkRate portRate,
        final Timing timing, final double speed, final long base) {
        final int total = indexes.stream().mapToInt(CaptureIndex::packets).sum();
        final Arrivals arrivals = new Arrivals(new long[total], new int[total], new int[total], new int[total]);
        final long[] portFree = new long[ports];
        int n = 0;
        for (int f = 0; f < indexes.size(); f++) {
            final CaptureIndex index = indexes.get(f);
            for (int i = 0; i < index.packets(); i++) {
                final int ingress = inputs.get(f).port() != null ? inputs.get(f).port() : index.interfaceId(i);
                final long start = timing == Timing.LINE_RATE ? portFree[ingress]
                    : Math.max(portFree[ingress], Math.round((index.timestampNanos(i) - base) * 1000.0 / speed));
                portFree[ingress] = start + portRate.serialisation(index.length(i));
                if (portFree[ingress] > LATEST_ARRIVAL_PICOS || portFree[ingress] < 0) {
                    throw new ConfigException(index.source() + ": the replay would last beyond " + LATEST_ARRIVAL_PICOS / 1_000_000_000_000L
                        + " s of switch time; speed it up with --speed");
                }
                arrivals.time[n] = portFree[ingress];
                arrivals.port[n] = ingress;
                arrivals.file[n] = f;
                arrivals.index[n] = i;
                n++;
            }
        }
        return arrivals;
    }

    private static UnsafeBuffer map(final Path path) {
        try (FileChannel channel = InputFiles.open(path, InputFiles.CAPTURE)) {
            final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
            return new UnsafeBuffer(mapped);
        } catch (final InputFiles.Refused e) {
            throw new ConfigException(e.getMessage());
        } catch (final IOException e) {
            throw new ConfigException(path + ": cannot read: " + e.getMessage());
        }
    }

    private static void checkPorts(final Input input, final CaptureIndex index, final int ports) {
        if (input.port() != null) {
            if (input.port() < 0 || input.port() >= ports) {
                throw new ConfigException("--in " + input.port() + "=" + input.file() + ": the switch has ports 0.." + (ports - 1));
            }
            return;
        }
        for (int i = 0; i < index.packets(); i++) {
            if (index.interfaceId(i) >= ports) {
                throw new CaptureFormatException(index.source(), index.dataOffset(i), "packet on interface " + index.interfaceId(i)
                    + ", which has no switch port (the switch has ports 0.." + (ports - 1) + "); map the file with --in PORT=FILE");
            }
        }
    }

    /**
     * The order in which packets arrive: by arrival time, then by ingress port, then as captured. Ties never
     * depend on how the traffic was split over files, so one pcapng and a pcap per port replay the same.
     */
    private static int[] arrivalOrder(final long[] arrivals, final int[] ports) {
        final Comparator<Integer> order = Comparator.<Integer>comparingLong(i -> arrivals[i])
            .thenComparingInt(i -> ports[i]).thenComparingInt(i -> i);
        boolean sorted = true;
        for (int i = 1; i < arrivals.length && sorted; i++) {
            sorted = arrivals[i - 1] < arrivals[i] || (arrivals[i - 1] == arrivals[i] && ports[i - 1] <= ports[i]);
        }
        if (sorted) {
            return IntStream.range(0, arrivals.length).toArray();
        }
        return IntStream.range(0, arrivals.length).boxed().sorted(order).mapToInt(Integer::intValue).toArray();
    }

    @Override
    public long nextTime() {
        return next < arrival.length ? arrival[next] : Long.MAX_VALUE;
    }

    @Override
    public int nextFlow() {
        return flowOfPort[port[next]];
    }

    @Override
    public int nextLength() {
        return length[next];
    }

    @Override
    public void emit(final PacketPool pool, final int handle) {
        final int k = next++;
        if (handle == PacketPool.NO_PACKET) {
            return;
        }
        pool.buffer(handle).putBytes(pool.offset(handle), files[file[k]], (int) offset[k], length[k]);
        pool.length(handle, length[k]);
        pool.ingressPort(handle, port[k]);
        pool.flow(handle, flowOfPort[port[k]]);
        pool.sequence(handle, (int) sequence[k]);
    }

    @Override
    public void reset() {
        next = 0;
    }

    @Override
    public int flows() {
        return portOfFlow.length;
    }

    @Override
    public int flowSource(final int flow) {
        return portOfFlow[flow];
    }

    @Override
    public int flowDestination(final int flow) {
        return -1;
    }

    @Override
    public long sendingPicos(final int flow) {
        return 0;
    }

    @Override
    public long packets() {
        return arrival.length;
    }

    @Override
    public int longestFrame() {
        int longest = 0;
        for (final int frame : length) {
            longest = Math.max(longest, frame);
        }
        return longest;
    }

    /** The earliest capture timestamp, nanoseconds since 1970: the replay's time zero. */
    public long baseNanos() {
        return baseNanos;
    }

    @Override
    public String description() {
        return description;
    }
}
