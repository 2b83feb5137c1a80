package io.trimswitch.ndp;

import io.trimswitch.dataplane.util.TimedIntFifo;

import java.util.Arrays;

/**
 * NDP's senders: each flow sends its initial window at line rate, then one packet per PULL, retransmissions first.
 * A NACK (the receiver saw a trimmed header) queues the packet for retransmission; a retransmission timeout covers
 * the rare header that was lost. Time is whatever unit the driver counts in: it is passed in, never read.
 */
public final class NdpSender {
    private static final byte UNSENT = 0;
    private static final byte IN_FLIGHT = 1;
    private static final byte ACKED = 2;
    private static final byte TO_RESEND = 3;

    private final NdpFlows plan;
    private final NdpFrames frames;
    private final NdpTimers timers;
    private final long rto;
    private final byte[][] sendState;
    private final int[] nextNew;
    private final TimedIntFifo[] resend;
    private final int[] acked;
    private final long[] retransmissions;
    private final long[] nacks;
    private final long[] nackedResends;
    private final long[] lastProgress;
    private final boolean[] timerPending;

    public NdpSender(final NdpFlows plan, final NdpFrames frames, final NdpTimers timers, final long rto) {
        this.plan = plan;
        this.frames = frames;
        this.timers = timers;
        this.rto = rto;
        final int flows = plan.flows();
        sendState = new byte[flows][];
        resend = new TimedIntFifo[flows];
        for (int flow = 0; flow < flows; flow++) {
            sendState[flow] = new byte[plan.size(flow)];
            resend[flow] = new TimedIntFifo(16);
        }
        nextNew = new int[flows];
        acked = new int[flows];
        retransmissions = new long[flows];
        nacks = new long[flows];
        nackedResends = new long[flows];
        lastProgress = new long[flows];
        timerPending = new boolean[flows];
    }

    /** A flow starts: its initial window goes out behind whatever the sending host already has on its link. */
    public void start(final int flow, final long now) {
        for (int seq = 0; seq < plan.window(flow); seq++) {
            send(flow, seq, now);
        }
        nextNew[flow] = plan.window(flow);
    }

    private void send(final int flow, final int sequence, final long now) {
        if (sendState[flow][sequence] != UNSENT) {
            retransmissions[flow]++;
        }
        sendState[flow][sequence] = IN_FLIGHT;
        frames.transmit(NdpFrames.DATA, flow, sequence, 0, now);
        if (!timerPending[flow]) {
            timerPending[flow] = true;
            lastProgress[flow] = Math.max(lastProgress[flow], now);
            timers.retransmitAt(lastProgress[flow] + rto, flow);
        }
    }

    public void onAck(final int flow, final int sequence, final long now) {
        if (sendState[flow][sequence] != ACKED) {
            sendState[flow][sequence] = ACKED;
            acked[flow]++;
            lastProgress[flow] = now;
        }
    }

    /** The receiver saw {@code sequence} as a header (or the switch returned the header to this sender). */
    public void onNack(final int flow, final int sequence, final long now) {
        nacks[flow]++;
        if (sendState[flow][sequence] == IN_FLIGHT) {
            sendState[flow][sequence] = TO_RESEND;
            resend[flow].add(now, sequence);
            nackedResends[flow]++;
            lastProgress[flow] = now;
        }
    }

    /** One packet per PULL: a retransmission if one waits, else the next new packet, else nothing. */
    public void onPull(final int flow, final long now) {
        while (!resend[flow].isEmpty()) {
            final int sequence = resend[flow].removeHead();
            if (sendState[flow][sequence] == TO_RESEND) {
                send(flow, sequence, now);
                return;
            }
        }
        if (nextNew[flow] < plan.size(flow)) {
            send(flow, nextNew[flow]++, now);
        }
    }

    /** Rarely needed, because headers are not lost: resend what is unacknowledged after a quiet RTO. */
    public void timeout(final int flow, final long now) {
        timerPending[flow] = false;
        if (acked[flow] == plan.size(flow)) {
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
            timers.retransmitAt(lastProgress[flow] + rto, flow);
        }
    }

    /** Packets sent again: after a NACK, or after a retransmission timeout. */
    public long retransmissions(final int flow) {
        return retransmissions[flow];
    }

    /** NACKs received: the headers the receiver saw, and headers returned to this sender. */
    public long nacks(final int flow) {
        return nacks[flow];
    }

    /** NACKs that queued their packet for sending again: the retransmissions trimming caused (the rest: timeouts). */
    public long nackedResends(final int flow) {
        return nackedResends[flow];
    }

    /** Packets of {@code flow} sent at least once: a flow cut short ends after these (or one more). */
    public int sent(final int flow) {
        return nextNew[flow];
    }

    public int acknowledged(final int flow) {
        return acked[flow];
    }

    /** Whether every packet of {@code flow} has been acknowledged. */
    public boolean finished(final int flow) {
        return acked[flow] == plan.size(flow);
    }

    public void reset() {
        for (int flow = 0; flow < sendState.length; flow++) {
            Arrays.fill(sendState[flow], UNSENT);
            resend[flow].clear();
        }
        Arrays.fill(nextNew, 0);
        Arrays.fill(acked, 0);
        Arrays.fill(retransmissions, 0);
        Arrays.fill(nacks, 0);
        Arrays.fill(nackedResends, 0);
        Arrays.fill(lastProgress, 0);
        Arrays.fill(timerPending, false);
    }
}
