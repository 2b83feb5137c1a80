package io.trimswitch.ndp.live;

import io.trimswitch.dataplane.codec.NdpHeader;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.ndp.NdpFrames;
import io.trimswitch.ndp.NdpSender;
import io.trimswitch.ndp.NdpTimers;
import org.agrona.concurrent.UnsafeBuffer;

import jdk.net.ExtendedSocketOptions;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * A live NDP sender: the simulator's {@link NdpSender} driven by the host clock over UDP sockets. Its flows all start
 * at once; each sends its initial window at the link's rate, then a packet per PULL, retransmitting what the receiver
 * NACKs (headers the switch trimmed) and what the switch returns; a retransmission timeout covers lost headers. Data
 * leaves through {@code paths} sockets, one source port per path, sprayed packet by packet. It runs until every
 * flow is acknowledged, or gives up when the receiver has been silent for the silence limit. At its duration, or
 * when {@link #stop stopped}, it cuts its flows short: each ends with the next new packet it sends, whose datagram
 * tells the receiver the flow's new length, and the host waits a little for what it sent to be acknowledged.
 */
public final class NdpSendingHost implements NdpFrames, NdpTimers {
    /** Once cut short, how long the host waits at most for its last packets' ACKs (the silence limit if shorter). */
    private static final long FINISH_NANOS = 2_000_000_000L;

    private final SenderSettings settings;
    private final int session = ThreadLocalRandom.current().nextInt();
    private final FlowLengths lengths;
    private final long[] rtoDue;
    private final long[] finishedAt;
    private final NdpSender sender;
    private final OutgoingLink link;
    private final SourcePortSpray spray;
    private final ByteBuffer out;
    private final UnsafeBuffer outView;
    private final ByteBuffer in = ByteBuffer.allocateDirect(65_536);
    private final UnsafeBuffer inView = new UnsafeBuffer(in);
    /** Reads one ready channel: made once, as the selector hands it every ready key. */
    private final Consumer<SelectionKey> readReady = this::readReady;
    private final DatagramBatch.Handler received = (from, length) -> {
        if (accept(from, length, this.turnNow)) {
            this.lastHeard = this.turnNow;
        }
    };
    private volatile boolean stopped;
    private volatile IdleWait waiting;
    private long cutAt = -1;
    private long nextRto = Long.MAX_VALUE;
    private long turnNow;
    private int turnWork;
    private long lastHeard;
    private int unfinished;
    private long foreign;
    private long truncated;
    private long malformed;
    private long returned;

    public NdpSendingHost(final SenderSettings settings) {
        this.settings = settings;
        final int flows = settings.flows();
        this.lengths = new FlowLengths(flows, settings.windowPackets());
        for (int flow = 0; flow < flows; flow++) {
            lengths.set(flow, settings.packets(flow));
        }
        this.rtoDue = new long[flows];
        Arrays.fill(rtoDue, Long.MAX_VALUE);
        this.finishedAt = new long[flows];
        Arrays.fill(finishedAt, -1);
        this.unfinished = flows;
        final int datagram = HostDatagram.HEADER_LENGTH + settings.payloadBytes();
        this.link = new OutgoingLink(LinkRate.gbps(settings.rateGbps()), HostDatagram.FRAME_OVERHEAD + datagram,
            HostDatagram.FRAME_OVERHEAD + HostDatagram.HEADER_LENGTH);
        this.spray = new SourcePortSpray(flows, settings.paths(), session);
        this.out = ByteBuffer.allocateDirect(datagram);
        this.outView = new UnsafeBuffer(out);
        this.sender = new NdpSender(lengths, this, this, settings.rtoNanos());
    }

    /** Ends the sending of new data at {@link #run}'s next turn (from another thread: a signal's shutdown hook). */
    public void stop() {
        stopped = true;
        final IdleWait idle = waiting;
        if (idle != null) {
            idle.wakeUp();
        }
    }

    /** Sends every flow and returns what happened; throws {@link PeerSilent} when the receiver stops answering. */
    public HostReport run() throws IOException {
        final DatagramChannel[] channels = new DatagramChannel[settings.paths()];
        try {
            for (int path = 0; path < channels.length; path++) {
                channels[path] = open();
            }
            try (IdleWait idle = new IdleWait(channels)) {
                waiting = idle;
                return loop(channels, idle);
            } finally {
                waiting = null;
            }
        } finally {
            for (final DatagramChannel channel : channels) {
                if (channel != null) {
                    channel.close();
                }
            }
        }
    }

    private DatagramChannel open() throws IOException {
        final DatagramChannel channel = DatagramChannel.open();
        channel.setOption(StandardSocketOptions.IP_TOS, settings.dscp() << 2);
        // A datagram longer than the path's MTU is refused at once: fragments would reach the switch untrimmable.
        channel.setOption(ExtendedSocketOptions.IP_DONTFRAGMENT, true);
        channel.setOption(StandardSocketOptions.SO_SNDBUF, 1 << 20);
        channel.setOption(StandardSocketOptions.SO_RCVBUF, 1 << 20);
        channel.bind(new InetSocketAddress(0));
        channel.configureBlocking(false);
        return channel;
    }

    private HostReport loop(final DatagramChannel[] channels, final IdleWait idle) throws IOException {
        final long origin = System.nanoTime();
        final long duration = settings.durationNanos() > 0 ? settings.durationNanos() : Long.MAX_VALUE;
        for (int flow = 0; flow < settings.flows(); flow++) {
            sender.start(flow, 0);
        }
        lastHeard = 0;
        long finishBy = Long.MAX_VALUE;
        while (unfinished > 0) {
            long now = System.nanoTime() - origin;
            if (cutAt < 0 && (stopped || now >= duration)) {
                cut(now);
                finishBy = now + Math.min(FINISH_NANOS, settings.silenceNanos());
            }
            if (now >= finishBy) {
                break;
            }
            turnNow = now;
            turnWork = 0;
            if (channels.length == 1) {
                read(channels[0]);
            } else {
                // One system call finds the paths with datagrams waiting, instead of a receive on every path.
                try {
                    idle.selectNow(readReady);
                } catch (final java.io.UncheckedIOException e) {
                    throw e.getCause();
                }
            }
            int work = turnWork;
            now = System.nanoTime() - origin;
            if (now >= nextRto) {
                fireTimeouts(now);
            }
            while (link.ready(now)) {
                if (!transmitHead(channels, now)) {
                    break;
                }
                work++;
            }
            if (unfinished > 0 && cutAt < 0 && now - lastHeard > settings.silenceNanos()) {
                throw new PeerSilent(silence(now - lastHeard), report());
            }
            if (work == 0) {
                // Once cut short, the finishing deadline replaces the silence limit and the duration.
                final long wake = Math.min(Math.min(link.nextDue(), nextRto),
                    cutAt < 0 ? Math.min(lastHeard + settings.silenceNanos() + 1, duration) : finishBy);
                idle.until(wake + origin, now + origin);
            }
        }
        return report();
    }

    private void readReady(final SelectionKey key) {
        try {
            read((DatagramChannel) key.channel());
        } catch (final IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Up to a batch of datagrams from {@code channel}, at the turn's time. */
    private void read(final DatagramChannel channel) throws IOException {
        turnWork += DatagramBatch.read(channel, in, received);
    }

    /**
     * No new data from now on: every unfinished flow ends with its next new packet (the datagrams after the cut carry
     * the new length), unless it had sent all of its packets already.
     */
    private void cut(final long now) {
        cutAt = now;
        for (int flow = 0; flow < lengths.flows(); flow++) {
            if (finishedAt[flow] < 0) {
                lengths.set(flow, Math.min(lengths.size(flow), sender.sent(flow) + 1));
            }
        }
    }

    /** One datagram from the network; whether it came from the receiver and made sense. */
    private boolean accept(final SocketAddress from, final int length, final long now) {
        if (!settings.receiver().equals(from)) {
            foreign++;
            return false;
        }
        if (length < HostDatagram.HEADER_LENGTH) {
            truncated++;
            return false;
        }
        if (HostDatagram.session(inView) != session) {
            foreign++;
            return false;
        }
        final int flow = HostDatagram.flow(inView);
        final int sequence = HostDatagram.sequence(inView);
        final int flags = HostDatagram.flags(inView);
        if (flow >= lengths.flows() || (flags & NdpHeader.FLAG_PULL) == 0 && sequence >= lengths.size(flow)) {
            malformed++;
            return false;
        }
        if ((flags & NdpHeader.FLAG_ACK) != 0) {
            sender.onAck(flow, sequence, now);
            if (finishedAt[flow] < 0 && sender.finished(flow)) {
                finishedAt[flow] = now;
                unfinished--;
            }
        } else if ((flags & NdpHeader.FLAG_NACK) != 0) {
            sender.onNack(flow, sequence, now);
        } else if ((flags & NdpHeader.FLAG_PULL) != 0) {
            sender.onPull(flow, now);
        } else if ((flags & NdpHeader.FLAG_DATA) != 0 && (flags & NdpHeader.FLAG_CHOPPED) != 0) {
            // NDP's return-to-sender: the switch had no room for the header towards the receiver.
            returned++;
            sender.onNack(flow, sequence, now);
        } else {
            malformed++;
            return false;
        }
        return true;
    }

    private void fireTimeouts(final long now) {
        nextRto = Long.MAX_VALUE;
        for (int flow = 0; flow < rtoDue.length; flow++) {
            if (rtoDue[flow] <= now) {
                rtoDue[flow] = Long.MAX_VALUE;
                sender.timeout(flow, now);
            }
            nextRto = Math.min(nextRto, rtoDue[flow]);
        }
    }

    /** The link's head frame onto the wire, through the socket of the path sprayed to; false when the socket is full. */
    private boolean transmitHead(final DatagramChannel[] channels, final long now) throws IOException {
        final int flow = link.headFlow();
        final int sequence = link.headSequence();
        final int payload = settings.payload(flow, sequence);
        final int path = spray.next(flow);
        HostDatagram.write(outView, NdpHeader.FLAG_DATA, session, flow, sequence, 0, path, lengths.size(flow), payload);
        out.clear().limit(HostDatagram.HEADER_LENGTH + payload);
        if (channels[path].send(out, settings.receiver()) == 0) {
            return false;
        }
        link.removeHead();
        return true;
    }

    private String silence(final long silentNanos) {
        final StringBuilder line = new StringBuilder().append("no answer from ").append(HostDatagram.name(settings.receiver())).append(" for ")
            .append(String.format(java.util.Locale.ROOT, "%.1f", silentNanos / 1e9)).append(" s: ").append(unfinished).append(" of ")
            .append(lengths.flows()).append(" flows unfinished");
        for (int flow = 0; flow < lengths.flows(); flow++) {
            if (finishedAt[flow] < 0) {
                line.append(" (flow ").append(flow).append(": ").append(sender.acknowledged(flow)).append(" of ").append(lengths.size(flow))
                    .append(" packets acknowledged)");
                break;
            }
        }
        return line.toString();
    }

    public HostReport report() {
        final List<FlowResult> flows = new ArrayList<>(lengths.flows());
        final long[] flowBytes = settings.flowBytes();
        for (int flow = 0; flow < lengths.flows(); flow++) {
            // A flow cut short delivered its first packets only.
            final long bytes = Math.min(flowBytes[flow], (long) lengths.size(flow) * settings.payloadBytes());
            flows.add(new FlowResult(HostDatagram.name(settings.receiver()), flow, bytes, finishedAt[flow],
                sender.retransmissions(flow), sender.nacks(flow), sender.nackedResends(flow)));
        }
        return new HostReport("sender", flows, foreign, truncated, malformed, 0, returned);
    }

    // ---- the state machine's driver: its frames onto the link, its timers into deadlines --------------

    @Override
    public void transmit(final int kind, final int flow, final int sequence, final int pull, final long now) {
        link.add(kind, flow, sequence, pull, now, true);
    }

    @Override
    public void retransmitAt(final long time, final int flow) {
        rtoDue[flow] = time;
        nextRto = Math.min(nextRto, time);
    }

    @Override
    public void pullAt(final long time, final int link) {
        throw new IllegalStateException("a sender does not pull");
    }
}
