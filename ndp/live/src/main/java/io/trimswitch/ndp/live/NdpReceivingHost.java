package io.trimswitch.ndp.live;

import io.trimswitch.dataplane.codec.NdpHeader;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.ndp.NdpFrames;
import io.trimswitch.ndp.NdpReceiver;
import io.trimswitch.ndp.NdpTimers;
import io.trimswitch.ndp.PullPacer;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;

/**
 * A live NDP receiver: the simulator's {@link NdpReceiver} and {@link PullPacer} driven by the host clock over a UDP
 * socket. A whole packet is ACKed, a header (the switch trimmed it) is NACKed, and one PULL per MTU time of this host's
 * link asks the senders for more. Flows are learnt from their packets: a flow is a sender's run and flow number, and
 * belongs to the address that sent its first packet; packets of it from elsewhere are ignored and counted.
 */
public final class NdpReceivingHost implements NdpFrames, NdpTimers {
    /** After the expected flows complete, the receiver still answers for a while, in case its last ACKs were lost. */
    private static final long LINGER_NANOS = 500_000_000L;

    private final ReceiverSettings settings;
    private final PrintWriter err;
    private final Long2LongHashMap flowOfKey = new Long2LongHashMap(-1);
    private final FlowLengths lengths;
    private final InetAddress[] peer;
    private final InetSocketAddress[] replyTo;
    private final int[] flowNumber;
    private final int[] session;
    private final long[] firstArrival;
    private final long[] lastArrival;
    private final long[] bytes;
    private final long[] headers;
    private final long[] retransmissions;
    private final BitSet[] seen;
    private final boolean[] abandoned;
    /** Flows whose sender cut them short. */
    private final boolean[] cut;
    private final NdpReceiver receiver;
    private final PullPacer pacer;
    private final OutgoingLink link;
    private final ByteBuffer in = ByteBuffer.allocateDirect(65_536);
    private final UnsafeBuffer inView = new UnsafeBuffer(in);
    private final ByteBuffer out = ByteBuffer.allocateDirect(HostDatagram.HEADER_LENGTH);
    private final UnsafeBuffer outView = new UnsafeBuffer(out);
    private volatile boolean stopped;
    private volatile InetSocketAddress bound;
    /** Each datagram at its own time: a batch may take a while to read. */
    private final DatagramBatch.Handler received = (from, length) -> accept(from, length, System.nanoTime() - this.origin);
    /** The host clock's reading at which the run began. */
    private long origin;
    private long pullDue = Long.MAX_VALUE;
    private int opened;
    private int abandonedCount;
    private long foreign;
    private long truncated;
    private long malformed;
    private long replayed;

    public NdpReceivingHost(final ReceiverSettings settings, final PrintWriter err) {
        this.settings = settings;
        this.err = err;
        final int capacity = settings.maxFlows();
        lengths = new FlowLengths(capacity, 0);
        peer = new InetAddress[capacity];
        replyTo = new InetSocketAddress[capacity];
        flowNumber = new int[capacity];
        session = new int[capacity];
        firstArrival = new long[capacity];
        lastArrival = new long[capacity];
        bytes = new long[capacity];
        headers = new long[capacity];
        retransmissions = new long[capacity];
        seen = new BitSet[capacity];
        abandoned = new boolean[capacity];
        cut = new boolean[capacity];
        link = new OutgoingLink(LinkRate.gbps(settings.rateGbps()),
            HostDatagram.FRAME_OVERHEAD + HostDatagram.HEADER_LENGTH + settings.payloadBytes(),
            HostDatagram.FRAME_OVERHEAD + HostDatagram.HEADER_LENGTH);
        receiver = new NdpReceiver(lengths, this, flow -> 0);
        pacer = new PullPacer(1, capacity, link.dataNanos(), this, this, receiver::receiving);
        receiver.pullFrom(pacer);
    }

    /** Ends {@link #run} at its next turn (from another thread: a signal's shutdown hook). */
    public void stop() {
        stopped = true;
    }

    /** Where the receiver listens once it has bound its socket (port 0 picks one); null before. */
    public InetSocketAddress boundAddress() {
        return bound;
    }

    /** Receives until the duration ends, the expected flows are done, or {@link #stop}; returns what arrived. */
    public HostReport run() throws IOException {
        try (DatagramChannel channel = DatagramChannel.open()) {
            channel.setOption(StandardSocketOptions.IP_TOS, settings.dscp() << 2);
            channel.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
            channel.setOption(StandardSocketOptions.SO_SNDBUF, 1 << 20);
            channel.bind(settings.listen());
            bound = (InetSocketAddress) channel.getLocalAddress();
            channel.configureBlocking(false);
            try (IdleWait idle = new IdleWait(channel)) {
                loop(channel, idle);
            }
        }
        return report();
    }

    private void loop(final DatagramChannel channel, final IdleWait idle) throws IOException {
        origin = System.nanoTime();
        final long end = settings.durationNanos() > 0 ? settings.durationNanos() : Long.MAX_VALUE;
        long stopAt = Long.MAX_VALUE;
        long nextSilenceCheck = 0;
        while (!stopped) {
            long now = System.nanoTime() - origin;
            if (now >= end || now >= stopAt) {
                return;
            }
            int work = DatagramBatch.read(channel, in, received);
            now = System.nanoTime() - origin;
            if (pullDue <= now) {
                // The PULL was due at pullDue: a wake-up late by the timer's slack catches up on the schedule (by at most
                // two packet times, so that a long stall does not end in a burst of PULLs), and the pace holds.
                final long due = Math.max(pullDue, now - 2 * link.dataNanos());
                pullDue = Long.MAX_VALUE;
                pacer.tick(0, due);
            }
            while (link.ready(now)) {
                if (!transmitHead(channel)) {
                    break;
                }
                work++;
            }
            if (now >= nextSilenceCheck) {
                abandonSilentFlows(now);
                nextSilenceCheck = now + 10_000_000L;
            }
            if (stopAt == Long.MAX_VALUE && settings.expectFlows() > 0 && receiver.completed() + abandonedCount >= settings.expectFlows()) {
                stopAt = now + LINGER_NANOS;
            }
            if (work == 0) {
                final long wake = Math.min(Math.min(pullDue, link.nextDue()), Math.min(nextSilenceCheck, Math.min(end, stopAt)));
                idle.until(wake + origin, now + origin);
            }
        }
    }

    private void accept(final InetSocketAddress from, final int length, final long now) {
        if (length < HostDatagram.HEADER_LENGTH) {
            truncated++;
            return;
        }
        final int flags = HostDatagram.flags(inView);
        if ((flags & NdpHeader.FLAG_DATA) == 0 || (flags & NdpHeader.CONTROL_FLAGS) != 0) {
            malformed++;
            return;
        }
        final int sequence = HostDatagram.sequence(inView);
        final int flowPackets = HostDatagram.packets(inView);
        final int payload = HostDatagram.payload(inView);
        if (flowPackets < 1 || sequence >= flowPackets || length > HostDatagram.HEADER_LENGTH + payload) {
            malformed++;
            return;
        }
        final long key = (long) HostDatagram.session(inView) << 16 | HostDatagram.flow(inView);
        int flow = (int) flowOfKey.get(key);
        if (flow < 0) {
            flow = open(key, from, flowPackets, now);
            if (flow < 0) {
                return;
            }
        } else if (!peer[flow].equals(from.getAddress())) {
            foreign++;
            return;
        } else if (lengths.size(flow) != flowPackets && !resized(flow, flowPackets, sequence, now)) {
            malformed++;
            return;
        }
        final boolean header = HostDatagram.isHeader(inView, length);
        if (header && receiver.holds(flow, sequence)) {
            // A copy of a header whose packet has arrived whole since: a NACK would only make the sender send it again.
            replayed++;
            return;
        }
        if (seen[flow].get(sequence)) {
            retransmissions[flow]++;
        }
        seen[flow].set(sequence);
        if (header) {
            headers[flow]++;
        } else if (!receiver.holds(flow, sequence)) {
            bytes[flow] += payload;
        }
        if (!from.equals(replyTo[flow])) {
            replyTo[flow] = from;
        }
        lastArrival[flow] = now;
        receiver.onData(flow, sequence, header, now);
    }

    /**
     * Whether a packet that gives its flow another length is the flow's: a shorter one cuts the flow short (its sender
     * stopped), if nothing beyond it has arrived; a longer one was sent before the cut, and counts if it is inside it.
     */
    private boolean resized(final int flow, final int flowPackets, final int sequence, final long now) {
        if (flowPackets < lengths.size(flow) && seen[flow].length() <= flowPackets) {
            lengths.set(flow, flowPackets);
            cut[flow] = true;
            receiver.shrunk(flow, now);
            return true;
        }
        return flowPackets > lengths.size(flow) && cut[flow] && sequence < lengths.size(flow);
    }

    private int open(final long key, final InetSocketAddress from, final int flowPackets, final long now) {
        if (opened == lengths.flows()) {
            malformed++;
            return -1;
        }
        final int flow = opened++;
        flowOfKey.put(key, flow);
        lengths.set(flow, flowPackets);
        peer[flow] = from.getAddress();
        replyTo[flow] = from;
        session[flow] = (int) (key >>> 16);
        flowNumber[flow] = (int) (key & 0xFFFF);
        firstArrival[flow] = now;
        seen[flow] = new BitSet(flowPackets);
        receiver.open(flow);
        return flow;
    }

    private void abandonSilentFlows(final long now) {
        for (int flow = 0; flow < opened; flow++) {
            if (!abandoned[flow] && receiver.receiving(flow) && now - lastArrival[flow] > settings.silenceNanos()) {
                abandoned[flow] = true;
                abandonedCount++;
                err.printf(Locale.ROOT, "trimswitch host: flow %d from %s gave up: its sender was silent for %.1f s with %d of %d packets received%n",
                    flowNumber[flow], replyTo[flow], (now - lastArrival[flow]) / 1e9, receiver.receivedPackets(flow), lengths.size(flow));
                err.flush();
            }
        }
    }

    /** The link's head frame (an ACK, NACK or PULL) to the flow's sender; false when the socket is full. */
    private boolean transmitHead(final DatagramChannel channel) throws IOException {
        final int flow = link.headFlow();
        final int kind = link.headKind();
        final int flags = kind == ACK ? NdpHeader.FLAG_ACK : kind == NACK ? NdpHeader.FLAG_NACK : NdpHeader.FLAG_PULL;
        HostDatagram.write(outView, flags, session[flow], flowNumber[flow], link.headSequence(), link.headPull(), 0, lengths.size(flow), 0);
        out.clear();
        if (channel.send(out, replyTo[flow]) == 0) {
            return false;
        }
        link.removeHead();
        return true;
    }

    /** Flows that did not complete: they were abandoned, or the run ended first. */
    public int unfinished() {
        return opened - receiver.completed();
    }

    public HostReport report() {
        final List<FlowResult> flows = new ArrayList<>(opened);
        for (int flow = 0; flow < opened; flow++) {
            final long completion = receiver.completion(flow);
            flows.add(new FlowResult(HostDatagram.name(replyTo[flow]), flowNumber[flow], bytes[flow],
                completion < 0 ? -1 : completion - firstArrival[flow], retransmissions[flow], headers[flow], 0));
        }
        return new HostReport("receiver", flows, foreign, truncated, malformed, replayed, 0);
    }

    // ---- the state machines' driver: their frames onto the link, their timer into a deadline ------------

    @Override
    public void transmit(final int kind, final int flow, final int sequence, final int pull, final long now) {
        link.add(kind, flow, sequence, pull, now, false);
    }

    @Override
    public void retransmitAt(final long time, final int flow) {
        throw new IllegalStateException("a receiver does not retransmit");
    }

    @Override
    public void pullAt(final long time, final int pullLink) {
        pullDue = Math.min(pullDue, time);
    }
}
