package io.trimswitch.simulator;

import io.trimswitch.config.ConfigException;
import io.trimswitch.switching.source.Pattern;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.io.InputFiles;
import io.trimswitch.dataplane.time.Picos;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The flows of a run of planned hosts (NDP's, UET's or another transport's), fixed before it starts: the pattern's
 * flows and any background flows, each with its sending and receiving port, its start, its size (drawn, seeded, from
 * the flow-size file) and its initial window.
 */
public final class FlowPlan {
    /** Flow ids travel in 16 bits of a host-link descriptor and of an event argument. */
    static final int MAX_FLOWS = 65_536;

    private final int[] sender;
    private final int[] receiver;
    private final long[] start;
    /** The starts fixed before the run (negative: started by another flow's end); {@link #start} as a run goes. */
    private final long[] plannedStart;
    private final int[] size;
    private final int[] window;
    private final String description;

    public FlowPlan(final Settings settings, final Pattern pattern, final long packetTime) {
        final int[] sizeChoices = settings.transport().flowSizes() == null
            ? new int[] {settings.workload().packets()} : flowSizeChoices(Path.of(settings.transport().flowSizes()));
        final List<long[]> flowList = new ArrayList<>();
        final SplittableRandom jitter = new SplittableRandom(settings.workload().seed());
        for (int flow = 0; flow < pattern.flows(); flow++) {
            flowList.add(new long[] {pattern.sender(flow), pattern.receiver(flow),
                settings.workload().startJitter() ? jitter.nextLong(packetTime) : 0});
        }
        final int background = addBackground(settings, packetTime, mean(sizeChoices), flowList);
        this.description = pattern.text() + " (ndp" + (background > 0 ? ", " + background + " background flows" : "") + ")";
        final int flows = flowList.size();
        this.sender = new int[flows];
        this.receiver = new int[flows];
        this.start = new long[flows];
        for (int flow = 0; flow < flows; flow++) {
            sender[flow] = (int) flowList.get(flow)[0];
            receiver[flow] = (int) flowList.get(flow)[1];
            start[flow] = flowList.get(flow)[2];
        }
        this.plannedStart = start.clone();
        this.size = drawSizes(sizeChoices, flows, settings.workload().seed());
        this.window = new int[flows];
        for (int flow = 0; flow < flows; flow++) {
            window[flow] = Math.min(size[flow], settings.transport().initialWindowPackets());
        }
    }

    /** The mean flow size, as {@code IntStream.average} gives it, without a stream's set-up on a cold start. */
    private static double mean(final int[] sizes) {
        long sum = 0;
        for (final int size : sizes) {
            sum += size;
        }
        return (double) sum / sizes.length;
    }

    /**
     * Flows given one by one (a network's workload): flow f from host {@code sender[f]} to {@code receiver[f]}, starting
     * at {@code start[f]}, {@code size[f]} packets long.
     */
    public FlowPlan(final int[] sender, final int[] receiver, final long[] start, final int[] size, final int initialWindow,
        final String description) {
        if (sender.length > MAX_FLOWS) {
            throw new ConfigException("the workload makes " + sender.length + " flows; at most " + MAX_FLOWS + " fit");
        }
        this.sender = sender.clone();
        this.receiver = receiver.clone();
        this.start = start.clone();
        this.plannedStart = start.clone();
        this.size = size.clone();
        this.window = new int[size.length];
        for (int flow = 0; flow < size.length; flow++) {
            window[flow] = Math.min(size[flow], initialWindow);
        }
        this.description = description;
    }

    /**
     * Background traffic: each sending host starts flows to uniformly random other ports, with exponential
     * gaps so that they offer {@code backgroundLoad} of its line rate (sizes: the mean of the size choices).
     */
    private static int addBackground(final Settings settings, final long packetTime, final double meanPackets, final List<long[]> flows) {
        final double load = settings.transport().backgroundLoad();
        if (load == 0) {
            return 0;
        }
        final int ports = settings.portCount();
        final double meanGap = meanPackets * packetTime / load;
        final long horizon = Picos.fromMicros(settings.transport().backgroundUs());
        final SplittableRandom arrivals = new SplittableRandom(settings.workload().seed() ^ 0xB4C6_0F3A_77E1_25D9L);
        int added = 0;
        for (int host = 0; host < ports; host++) {
            long time = (long) (-Math.log(1 - arrivals.nextDouble()) * meanGap);
            while (time < horizon) {
                int destination = arrivals.nextInt(ports - 1);
                if (destination >= host) {
                    destination++;
                }
                flows.add(new long[] {host, destination, time});
                added++;
                if (flows.size() > MAX_FLOWS) {
                    throw new ConfigException("background traffic would make more than " + MAX_FLOWS
                        + " flows; lower transport.backgroundLoad or transport.backgroundUs");
                }
                time += (long) (-Math.log(1 - arrivals.nextDouble()) * meanGap);
            }
        }
        return added;
    }

    /** Each flow's size, drawn (seeded) from the choices; one choice means every flow is that long. */
    private static int[] drawSizes(final int[] choices, final int flows, final long seed) {
        final int[] sizes = new int[flows];
        final SplittableRandom draw = new SplittableRandom(seed ^ 0x9E3779B97F4A7C15L);
        for (int flow = 0; flow < flows; flow++) {
            sizes[flow] = choices.length == 1 ? choices[0] : choices[draw.nextInt(choices.length)];
        }
        return sizes;
    }

    /** The flow sizes of a CSV file (first column, packets), checked. */
    public static int[] flowSizeChoices(final Path file) {
        final List<Integer> choices = new ArrayList<>();
        try {
            int line = 0;
            for (final String text : InputFiles.text(file, InputFiles.FLOW_PLAN).split("\r?\n|\r", -1)) {
                line++;
                final String value = text.strip();
                if (value.isEmpty() || value.startsWith("#")) {
                    continue;
                }
                try {
                    final int packets = io.trimswitch.config.WholeNumbers.parseInt(value.split(",")[0].strip());
                    if (packets < 1 || packets > 65_535) {
                        throw new NumberFormatException();
                    }
                    choices.add(packets);
                } catch (final NumberFormatException e) {
                    throw new ConfigException(file + " line " + line + ": " + InputFiles.quoted(value) + " is not a flow size of 1..65535 packets");
                }
            }
        } catch (final InputFiles.Refused e) {
            throw new ConfigException(e.getMessage());
        }
        if (choices.isEmpty()) {
            throw new ConfigException(file + ": no flow sizes in it");
        }
        return choices.stream().mapToInt(Integer::intValue).toArray();
    }

    public int flows() {
        return size.length;
    }

    /** The port whose host sends {@code flow}. */
    public int sender(final int flow) {
        return sender[flow];
    }

    /** The port whose host receives {@code flow}. */
    public int receiver(final int flow) {
        return receiver[flow];
    }

    public long start(final int flow) {
        return start[flow];
    }

    /** A flow that waited for another's end starts at {@code time}. */
    public void startAt(final int flow, final long time) {
        start[flow] = time;
    }

    /** Every flow's start as planned: a new run begins. */
    public void resetStarts() {
        System.arraycopy(plannedStart, 0, start, 0, start.length);
    }

    /** The flow's length in packets. */
    public int size(final int flow) {
        return size[flow];
    }

    /** Packets the sender sends at line rate before it waits for pulls. */
    public int window(final int flow) {
        return window[flow];
    }

    public long packets() {
        long total = 0;
        for (final int packets : size) {
            total += packets;
        }
        return total;
    }

    public String description() {
        return description;
    }
}
