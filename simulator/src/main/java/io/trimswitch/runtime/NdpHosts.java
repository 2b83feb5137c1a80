package io.trimswitch.runtime;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Pattern;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.codec.NdpHeader;
import io.trimswitch.dataplane.packet.FrameTemplates;
import io.trimswitch.dataplane.packet.PacketClass;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimKind;
import io.trimswitch.dataplane.packet.WorkloadFrames;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.dataplane.util.TimedIntFifo;
import io.trimswitch.dataplane.util.TimedPairFifo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * NDP end hosts (Handley et al., SIGCOMM 2017) around the switch, so a run is a whole experiment.
 *
 * <p>A sender sends its initial window at line rate, then one packet per PULL, retransmissions first; a
 * NACK queues the trimmed packet for retransmission; a retransmission timeout covers headers that were
 * lost. A receiver ACKs every whole packet and NACKs every header, and asks its pull pacer — one per
 * receiving host, shared by all flows arriving there — for a PULL, which the pacer sends one per MTU time
 * of the host's link. ACK, NACK and PULL are 64-byte NDP frames through the same switch (header queue).
 *
 * <p>Hosts reach the switch over links with a propagation delay. With separate hosts (the default, as in
 * the reproduced evaluation) the host that sends on port p is not the one that receives there: it has
 * its own egress port, so its control packets never queue behind data for port p.
 */
final class NdpHosts implements TrafficSource, FlowLifetimes {
    static final int LINK_TO_SWITCH = 6;
    static final int PULL_TICK = 7;
    static final int RETRANSMIT_TIMEOUT = 8;
    static final int FLOW_START = 9;
    /** Flow ids travel in 16 bits of a host-link descriptor and of an event argument. */
    static final int MAX_FLOWS = 65_536;

    private static final int CONTROL_BYTES = 64;
    /** Where the NDP shim starts in the frames the hosts build: Ethernet, a 20-byte IPv4 header, UDP. */
    private static final int NDP_OFFSET = 14 + 20 + 8;
    private static final int DATA = 0;
    private static final int ACK = 1;
    private static final int NACK = 2;
    private static final int PULL = 3;
    private static final byte UNSENT = 0;
    private static final byte IN_FLIGHT = 1;
    private static final byte ACKED = 2;
    private static final byte TO_RESEND = 3;

    /** What the hosts need from the switch they are plugged into. */
    interface Switch {
        void schedule(long time, int type, int arg);

        /** A free packet buffer, or {@link PacketPool#NO_PACKET}. */
        int allocate();

        /** The frame in {@code handle} has fully arrived at its ingress port. */
        void inject(int handle, boolean control, long now);

        /** A frame of {@code flow} reached the switch but no buffer was free for it. */
        void noBuffer(int flow, boolean control);

        PacketPool pool();
    }

    private final String description;
    private final int[] src;
    private final int[] dst;
    private final int ports;
    private final boolean separate;
    private final long propagation;
    private final long rto;
    private final int packetBytes;
    private final long packetTime;
    private final long controlTime;
    private final int[] size;
    private final int[] window;
    private final long[] start;

    private final byte[][] sendState;
    private final int[] nextNew;
    private final TimedIntFifo[] resend;
    private final int[] acked;
    private final long[] retransmissions;
    private final long[] lastProgress;
    private final boolean[] timerPending;
    private final long[] dataSent;
    private final boolean[][] received;
    private final int[] receivedCount;
    private final long[] completion;
    private final int[] pulls;
    private int completed;

    private final long[] linkFree;
    private final TimedPairFifo[] uplink;
    private final TimedIntFifo[] pullRequests;
    private final long[] nextPull;
    private final boolean[] pullTickPending;
    /** Per flow, its data frames (template 2 × flow) and the control frames back to its sender (2 × flow + 1). */
    private final FrameTemplates frames;
    private Switch sw;

    NdpHosts(final Settings settings, final Pattern pattern) {
        this.ports = settings.portCount();
        this.separate = settings.separateHosts();
        this.propagation = Picos.fromNanos(settings.transport().propagationNs());
        this.rto = Picos.fromMicros(settings.transport().rtoUs());
        this.packetBytes = settings.workload().packetBytes();
        final LinkRate rate = new LinkRate(settings.portRateBps());
        this.packetTime = rate.serialisation(packetBytes);
        this.controlTime = rate.serialisation(CONTROL_BYTES);
        final int[] sizeChoices = settings.transport().flowSizes() == null ? new int[] {settings.workload().packets()} : flowSizeChoices(settings);
        final List<long[]> flowList = new ArrayList<>();
        final SplittableRandom jitter = new SplittableRandom(settings.workload().seed());
        for (int flow = 0; flow < pattern.flows(); flow++) {
            flowList.add(new long[] {pattern.sender(flow), pattern.receiver(flow),
                settings.workload().startJitter() ? jitter.nextLong(packetTime) : 0});
        }
        final int background = addBackground(settings, Arrays.stream(sizeChoices).average().orElseThrow(), flowList);
        this.description = pattern.text() + " (ndp" + (background > 0 ? ", " + background + " background flows" : "") + ")";
        final int flows = flowList.size();
        this.src = new int[flows];
        this.dst = new int[flows];
        this.start = new long[flows];
        for (int flow = 0; flow < flows; flow++) {
            src[flow] = (int) flowList.get(flow)[0];
            dst[flow] = (int) flowList.get(flow)[1];
            start[flow] = flowList.get(flow)[2];
        }
        this.size = drawSizes(sizeChoices, flows, settings.workload().seed());
        this.window = new int[flows];
        for (int flow = 0; flow < flows; flow++) {
            window[flow] = Math.min(size[flow], settings.transport().initialWindowPackets());
        }
        sendState = new byte[flows][];
        received = new boolean[flows][];
        resend = new TimedIntFifo[flows];
        for (int flow = 0; flow < flows; flow++) {
            sendState[flow] = new byte[size[flow]];
            received[flow] = new boolean[size[flow]];
            resend[flow] = new TimedIntFifo(16);
        }
        nextNew = new int[flows];
        acked = new int[flows];
        retransmissions = new long[flows];
        lastProgress = new long[flows];
        timerPending = new boolean[flows];
        dataSent = new long[flows];
        receivedCount = new int[flows];
        completion = new long[flows];
        pulls = new int[flows];
        final int links = settings.egressPorts();
        linkFree = new long[links];
        uplink = new TimedPairFifo[links];
        pullRequests = new TimedIntFifo[links];
        for (int link = 0; link < links; link++) {
            uplink[link] = new TimedPairFifo(64);
            pullRequests[link] = new TimedIntFifo(64);
        }
        nextPull = new long[links];
        pullTickPending = new boolean[links];
        frames = new FrameTemplates(2 * flows);
        final int dscp = settings.workloadDscp();
        final int ndpUdpPort = settings.trim().ndpUdpPort();
        final int receiverHost = separate ? WorkloadFrames.RECEIVER_HOST_ID : WorkloadFrames.HOST_ID;
        for (int flow = 0; flow < flows; flow++) {
            frames.define(2 * flow, packetBytes, src[flow], WorkloadFrames.HOST_ID, dst[flow], receiverHost, flow, dscp, ndpUdpPort);
            frames.define(2 * flow + 1, CONTROL_BYTES, dst[flow], receiverHost, src[flow], WorkloadFrames.HOST_ID, flow, dscp, ndpUdpPort);
        }
    }

    /**
     * Background traffic: each sending host starts flows to uniformly random other ports, with exponential
     * gaps so that they offer {@code backgroundLoad} of its line rate (sizes: the mean of the size choices).
     */
    private int addBackground(final Settings settings, final double meanPackets, final List<long[]> flows) {
        final double load = settings.transport().backgroundLoad();
        if (load == 0) {
            return 0;
        }
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

    /** The flow sizes of the CSV file in {@code transport.flowSizes}, checked. */
    private static int[] flowSizeChoices(final Settings settings) {
        final Path file = Path.of(settings.transport().flowSizes());
        final List<Integer> choices = new ArrayList<>();
        try {
            int line = 0;
            for (final String text : Files.readAllLines(file)) {
                line++;
                final String value = text.strip();
                if (value.isEmpty() || value.startsWith("#")) {
                    continue;
                }
                try {
                    final int packets = Integer.parseInt(value.split(",")[0].strip());
                    if (packets < 1 || packets > 65_535) {
                        throw new NumberFormatException();
                    }
                    choices.add(packets);
                } catch (final NumberFormatException e) {
                    throw new ConfigException(file + " line " + line + ": '" + value + "' is not a flow size of 1..65535 packets");
                }
            }
        } catch (final NoSuchFileException e) {
            throw new ConfigException(file + ": no such file");
        } catch (final IOException e) {
            throw new ConfigException(file + ": cannot read: " + e.getMessage());
        }
        if (choices.isEmpty()) {
            throw new ConfigException(file + ": no flow sizes in it");
        }
        return choices.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Schedules every flow's start. */
    void start(final Switch attached) {
        this.sw = attached;
        for (int flow = 0; flow < size.length; flow++) {
            sw.schedule(start[flow], FLOW_START, flow);
        }
    }

    /** A flow starts: its initial window goes onto the sending host's link, behind whatever is already there. */
    private void startFlow(final int flow, final long now) {
        for (int seq = 0; seq < window[flow]; seq++) {
            sendData(flow, seq, now);
        }
        nextNew[flow] = window[flow];
    }

    void onEvent(final int type, final int arg, final long now) {
        switch (type) {
            case LINK_TO_SWITCH -> arriveAtSwitch(arg, now);
            case PULL_TICK -> pullTick(arg, now);
            case RETRANSMIT_TIMEOUT -> timeout(arg, now);
            case FLOW_START -> startFlow(arg, now);
            default -> throw new IllegalStateException("not an NDP event: " + type);
        }
    }

    /** How long a frame takes from the switch to its host (and back). */
    long propagationPicos() {
        return propagation;
    }

    boolean done() {
        return completed == size.length;
    }

    // ---- host links --------------------------------------------------------------------------

    private int senderLink(final int flow) {
        return src[flow];
    }

    private int receiverLink(final int flow) {
        return separate ? ports + dst[flow] : dst[flow];
    }

    private void transmit(final int link, final long now, final int bytes, final int kindAndFlow, final int sequenceAndPull) {
        final long begin = Math.max(now, linkFree[link]);
        linkFree[link] = begin + (bytes == CONTROL_BYTES ? controlTime : packetTime);
        final long arrival = linkFree[link] + propagation;
        final TimedPairFifo fifo = uplink[link];
        fifo.add(arrival, kindAndFlow, sequenceAndPull);
        if (fifo.size() == 1) {
            sw.schedule(arrival, LINK_TO_SWITCH, link);
        }
    }

    private void arriveAtSwitch(final int link, final long now) {
        final TimedPairFifo fifo = uplink[link];
        final int kind = fifo.headFirst() >>> 16;
        final int flow = fifo.headFirst() & 0xFFFF;
        final int sequence = fifo.headSecond() & 0xFFFF;
        final int pull = fifo.headSecond() >>> 16;
        fifo.removeHead();
        if (!fifo.isEmpty()) {
            sw.schedule(fifo.headTime(), LINK_TO_SWITCH, link);
        }
        final int handle = sw.allocate();
        if (handle == PacketPool.NO_PACKET) {
            sw.noBuffer(flow, kind != DATA);
            return;
        }
        final PacketPool pool = sw.pool();
        if (kind == DATA) {
            frames.write(pool.buffer(handle), pool.offset(handle), 2 * flow, NdpHeader.FLAG_DATA, sequence, 0);
            pool.length(handle, packetBytes);
        } else {
            final int flags = kind == ACK ? NdpHeader.FLAG_ACK : kind == NACK ? NdpHeader.FLAG_NACK : NdpHeader.FLAG_PULL;
            frames.write(pool.buffer(handle), pool.offset(handle), 2 * flow + 1, flags, sequence, pull);
            pool.length(handle, CONTROL_BYTES);
        }
        pool.ingressPort(handle, link);
        pool.flow(handle, flow);
        pool.sequence(handle, sequence);
        sw.inject(handle, kind != DATA, now);
    }

    /** A frame that left the switch a propagation delay ago reaches its host, which consumes (and frees) it. */
    void arriveAtHost(final int handle, final long now) {
        final PacketPool pool = sw.pool();
        final int flow = pool.flow(handle);
        final int sequence = pool.sequence(handle);
        final boolean control = PacketClass.isControl(pool.classification(handle));
        final int flags = control ? NdpHeader.flags(pool.buffer(handle), pool.offset(handle) + NDP_OFFSET) : 0;
        final boolean header = pool.trimKind(handle) != TrimKind.NONE;
        pool.free(handle);
        if (flow < 0) {
            return;
        }
        if (!control) {
            onData(flow, sequence, header, now);
        } else if ((flags & NdpHeader.FLAG_ACK) != 0) {
            onAck(flow, sequence, now);
        } else if ((flags & NdpHeader.FLAG_NACK) != 0) {
            onNack(flow, sequence, now);
        } else {
            onPull(flow, now);
        }
    }

    // ---- receiver ---------------------------------------------------------------------------

    private void onData(final int flow, final int sequence, final boolean header, final long now) {
        final int link = receiverLink(flow);
        if (header) {
            transmit(link, now, CONTROL_BYTES, NACK << 16 | flow, sequence);
        } else {
            if (!received[flow][sequence]) {
                received[flow][sequence] = true;
                if (++receivedCount[flow] == size[flow]) {
                    completion[flow] = now;
                    completed++;
                }
            }
            transmit(link, now, CONTROL_BYTES, ACK << 16 | flow, sequence);
        }
        if (receivedCount[flow] < size[flow]) {
            requestPull(link, flow, now);
        }
    }

    /** The pull pacer: one PULL per MTU time of the receiving host's link, whichever flow asked first. */
    private void requestPull(final int link, final int flow, final long now) {
        pullRequests[link].add(now, flow);
        if (!pullTickPending[link]) {
            pullTickPending[link] = true;
            sw.schedule(Math.max(now, nextPull[link]), PULL_TICK, link);
        }
    }

    private void pullTick(final int link, final long now) {
        final TimedIntFifo requests = pullRequests[link];
        while (!requests.isEmpty()) {
            final int flow = requests.removeHead();
            if (receivedCount[flow] < size[flow]) {
                pulls[flow]++;
                transmit(link, now, CONTROL_BYTES, PULL << 16 | flow, (pulls[flow] & 0xFFFF) << 16);
                nextPull[link] = now + packetTime;
                break;
            }
        }
        if (requests.isEmpty()) {
            pullTickPending[link] = false;
        } else {
            sw.schedule(nextPull[link], PULL_TICK, link);
        }
    }

    // ---- sender -----------------------------------------------------------------------------

    private void sendData(final int flow, final int sequence, final long now) {
        if (sendState[flow][sequence] != UNSENT) {
            retransmissions[flow]++;
        }
        sendState[flow][sequence] = IN_FLIGHT;
        dataSent[flow]++;
        transmit(senderLink(flow), now, packetBytes, DATA << 16 | flow, sequence);
        if (!timerPending[flow]) {
            timerPending[flow] = true;
            lastProgress[flow] = Math.max(lastProgress[flow], now);
            sw.schedule(lastProgress[flow] + rto, RETRANSMIT_TIMEOUT, flow);
        }
    }

    private void onAck(final int flow, final int sequence, final long now) {
        if (sendState[flow][sequence] != ACKED) {
            sendState[flow][sequence] = ACKED;
            acked[flow]++;
            lastProgress[flow] = now;
        }
    }

    private void onNack(final int flow, final int sequence, final long now) {
        if (sendState[flow][sequence] == IN_FLIGHT) {
            sendState[flow][sequence] = TO_RESEND;
            resend[flow].add(now, sequence);
            lastProgress[flow] = now;
        }
    }

    /** One packet per PULL: a retransmission if one waits, else the next new packet, else nothing. */
    private void onPull(final int flow, final long now) {
        while (!resend[flow].isEmpty()) {
            final int sequence = resend[flow].removeHead();
            if (sendState[flow][sequence] == TO_RESEND) {
                sendData(flow, sequence, now);
                return;
            }
        }
        if (nextNew[flow] < size[flow]) {
            sendData(flow, nextNew[flow]++, now);
        }
    }

    /** Rarely needed, because headers are not lost: resend what is unacknowledged after a quiet RTO. */
    private void timeout(final int flow, final long now) {
        timerPending[flow] = false;
        if (acked[flow] == size[flow]) {
            return;
        }
        if (now - lastProgress[flow] >= rto) {
            for (int sequence = 0; sequence < nextNew[flow]; sequence++) {
                if (sendState[flow][sequence] == IN_FLIGHT) {
                    sendState[flow][sequence] = TO_RESEND;
                    resend[flow].add(now, sequence);
                }
            }
            lastProgress[flow] = now;
            onPull(flow, now);
        }
        if (!timerPending[flow]) {
            timerPending[flow] = true;
            sw.schedule(lastProgress[flow] + rto, RETRANSMIT_TIMEOUT, flow);
        }
    }

    @Override
    public void reset() {
        for (int flow = 0; flow < size.length; flow++) {
            Arrays.fill(sendState[flow], UNSENT);
            Arrays.fill(received[flow], false);
            resend[flow].clear();
        }
        Arrays.fill(nextNew, 0);
        Arrays.fill(acked, 0);
        Arrays.fill(retransmissions, 0);
        Arrays.fill(lastProgress, 0);
        Arrays.fill(timerPending, false);
        Arrays.fill(dataSent, 0);
        Arrays.fill(receivedCount, 0);
        Arrays.fill(completion, -1);
        Arrays.fill(pulls, 0);
        completed = 0;
        Arrays.fill(linkFree, 0);
        Arrays.fill(nextPull, 0);
        Arrays.fill(pullTickPending, false);
        for (int link = 0; link < uplink.length; link++) {
            uplink[link].clear();
            pullRequests[link].clear();
        }
    }

    // ---- what the report reads ---------------------------------------------------------------

    @Override
    public int size(final int flow) {
        return size[flow];
    }

    @Override
    public long startPicos(final int flow) {
        return start[flow];
    }

    @Override
    public long completionPicos(final int flow) {
        return completion[flow];
    }

    @Override
    public long retransmissions(final int flow) {
        return retransmissions[flow];
    }

    @Override
    public int completedFlows() {
        return completed;
    }

    int packetBytes() {
        return packetBytes;
    }

    @Override
    public long nextTime() {
        return Long.MAX_VALUE;
    }

    @Override
    public int nextFlow() {
        throw new IllegalStateException("NDP hosts send through events");
    }

    @Override
    public int nextLength() {
        throw new IllegalStateException("NDP hosts send through events");
    }

    @Override
    public void emit(final PacketPool pool, final int handle) {
        throw new IllegalStateException("NDP hosts send through events");
    }

    @Override
    public int flows() {
        return size.length;
    }

    @Override
    public int flowSource(final int flow) {
        return src[flow];
    }

    @Override
    public int flowDestination(final int flow) {
        return dst[flow];
    }

    /** Goodput over the flow's life: from its start to its completion. */
    @Override
    public long sendingPicos(final int flow) {
        return completion[flow] < 0 ? 0 : completion[flow] - start[flow];
    }

    @Override
    public long packets() {
        long total = 0;
        for (final int packets : size) {
            total += packets;
        }
        return total;
    }

    @Override
    public String description() {
        return description;
    }
}
