package io.trimswitch.runtime;

import io.trimswitch.dataplane.util.TimedIntFifo;

import java.util.Arrays;

/**
 * The NDP senders: each sends its initial window at line rate, then one packet per PULL, retransmissions first.
 * A NACK queues the trimmed packet for retransmission; a retransmission timeout covers the rare header that was
 * lost.
 */
final class NdpSender {
    private static final byte UNSENT = 0;
    private static final byte IN_FLIGHT = 1;
    private static final byte ACKED = 2;
    private static final byte TO_RESEND = 3;

    private final NdpFlowPlan plan;
    private final HostLinks links;
    private final long rto;
    private final byte[][] sendState;
    private final int[] nextNew;
    private final TimedIntFifo[] resend;
    private final int[] acked;
    private final long[] retransmissions;
    private final long[] lastProgress;
    private final boolean[] timerPending;
    private NdpHosts.Switch sw;

    NdpSender(final NdpFlowPlan plan, final HostLinks links, final long rtoPicos) {
        this.plan = plan;
        this.links = links;
        this.rto = rtoPicos;
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
        lastProgress = new long[flows];
        timerPending = new boolean[flows];
    }

    void attach(final NdpHosts.Switch attached) {
        this.sw = attached;
    }

    /** A flow starts: its initial window goes onto the sending host's link, behind whatever is already there. */
    void start(final int flow, final long now) {
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
        links.transmit(links.senderLink(flow), now, HostLinks.DATA, flow, sequence, 0);
        if (!timerPending[flow]) {
            timerPending[flow] = true;
            lastProgress[flow] = Math.max(lastProgress[flow], now);
            sw.schedule(lastProgress[flow] + rto, EventType.RETRANSMIT_TIMEOUT, flow);
        }
    }

    void onAck(final int flow, final int sequence, final long now) {
        if (sendState[flow][sequence] != ACKED) {
            sendState[flow][sequence] = ACKED;
            acked[flow]++;
            lastProgress[flow] = now;
        }
    }

    void onNack(final int flow, final int sequence, final long now) {
        if (sendState[flow][sequence] == IN_FLIGHT) {
            sendState[flow][sequence] = TO_RESEND;
            resend[flow].add(now, sequence);
            lastProgress[flow] = now;
        }
    }

    /** One packet per PULL: a retransmission if one waits, else the next new packet, else nothing. */
    void onPull(final int flow, final long now) {
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
    void timeout(final int flow, final long now) {
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
            sw.schedule(lastProgress[flow] + rto, EventType.RETRANSMIT_TIMEOUT, flow);
        }
    }

    long retransmissions(final int flow) {
        return retransmissions[flow];
    }

    void reset() {
        for (int flow = 0; flow < sendState.length; flow++) {
            Arrays.fill(sendState[flow], UNSENT);
            resend[flow].clear();
        }
        Arrays.fill(nextNew, 0);
        Arrays.fill(acked, 0);
        Arrays.fill(retransmissions, 0);
        Arrays.fill(lastProgress, 0);
        Arrays.fill(timerPending, false);
    }
}
