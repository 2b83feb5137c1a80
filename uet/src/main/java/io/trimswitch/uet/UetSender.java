package io.trimswitch.uet;

import java.util.Arrays;
import java.util.BitSet;

/**
 * Ultra Ethernet's senders with NSCC: a flow sends while its window holds another packet, retransmissions first, each
 * packet on the entropy its load balancer picks; its host's link decides when ({@link UetFrames#ready}, then
 * {@link #sendNext}). ACKs carry the receiver's count of packets held (what NSCC counts as delivered), its cumulative
 * and selective acknowledgements (what leaves the flight) and the acknowledged packet, whose round trip feeds NSCC; a
 * NACK queues its packet for sending again; a packet unacknowledged for the retransmission timeout is sent again too. A flow completes when every packet
 * is acknowledged. A flow that carries several messages sends each once {@link #start} has queued it, after the ones
 * before; a message completes when its every packet is acknowledged. With RCCC ({@link RcccCredit}) a flow also needs
 * credit from its receiver, each data packet carries its pull target and each PULL adds credit; RCCC alone leaves NSCC's
 * window out. Time is whatever unit the driver counts in (picoseconds for NSCC's constants): passed in, never read.
 */
public final class UetSender {
    private static final byte UNSENT = 0;
    private static final byte IN_FLIGHT = 1;
    private static final byte ACKED = 2;
    private static final byte TO_RESEND = 3;

    private final UetFlows plan;
    private final UetFrames frames;
    private final UetTimers timers;
    private final Nscc nscc;
    /** NSCC's window limits the flows. */
    private final boolean paced;
    /** The receivers' credit, or null: NSCC alone. */
    private final RcccCredit credit;
    private final EntropyChoice[] balancers;
    private final long rto;
    private final int packetBytes;
    private final byte[][] state;
    private final byte[][] sends;
    private final long[][] sentAt;
    /** Per packet: it timed out once, so a copy sent before may still come back (as a NACK whose round trip is not its own). */
    private final BitSet[] timedOut;
    private final int[] nextNew;
    /** Per flow: the packets its queued messages hold, and how many messages are queued. */
    private final int[] queuedEnd;
    private final int[] queuedMessages;
    private final int[][] messageEnds;
    private final int[][] messageAcked;
    private final long[][] messageDone;
    private final int[] cumulative;
    private final int[] toResend;
    private final int[] heldByReceiver;
    private final long[] inFlight;
    private final boolean[] started;
    private final long[] completion;
    private final boolean[] timerPending;
    private final long[] retransmissions;
    private final long[] nacks;
    private final long[] timeouts;
    private int completed;

    /**
     * @param plan        the flows and their lengths
     * @param parameters  NSCC's constants for the network
     * @param initialWindowBytes a flow's first window, bytes; 0: 1.5 bandwidth-delay products
     * @param balancers   each flow's load balancer
     * @param rto         the retransmission timeout
     */
    public UetSender(final UetFlows plan, final NsccParameters parameters, final long initialWindowBytes, final EntropyChoice[] balancers,
        final UetFrames frames, final UetTimers timers, final long rto) {
        this(plan, parameters, initialWindowBytes, balancers, frames, timers, rto, UetSettings.CongestionControl.SENDER);
    }

    /** A sender paced by {@code cc}: NSCC's window, the receivers' credit (up to 1.5 bandwidth-delay products), or both. */
    public UetSender(final UetFlows plan, final NsccParameters parameters, final long initialWindowBytes, final EntropyChoice[] balancers,
        final UetFrames frames, final UetTimers timers, final long rto, final UetSettings.CongestionControl cc) {
        this.plan = plan;
        this.paced = cc.sender();
        this.credit = cc.receiver() ? new RcccCredit(plan.flows(), (long) (1.5 * parameters.bdp(parameters.networkRtt)), parameters.packetBytes) : null;
        this.frames = frames;
        this.timers = timers;
        this.rto = rto;
        this.packetBytes = parameters.packetBytes;
        this.balancers = balancers.clone();
        final int flows = plan.flows();
        final long[] first = new long[flows];
        Arrays.fill(first, initialWindowBytes);
        this.nscc = new Nscc(parameters, first);
        state = new byte[flows][];
        sends = new byte[flows][];
        sentAt = new long[flows][];
        timedOut = new BitSet[flows];
        messageEnds = new int[flows][];
        messageAcked = new int[flows][];
        messageDone = new long[flows][];
        for (int flow = 0; flow < flows; flow++) {
            messageEnds[flow] = new int[plan.messages(flow)];
            for (int m = 0; m < messageEnds[flow].length; m++) {
                messageEnds[flow][m] = plan.messageEnd(flow, m);
            }
            messageAcked[flow] = new int[messageEnds[flow].length];
            messageDone[flow] = new long[messageEnds[flow].length];
            Arrays.fill(messageDone[flow], -1);
            state[flow] = new byte[plan.size(flow)];
            sends[flow] = new byte[plan.size(flow)];
            sentAt[flow] = new long[plan.size(flow)];
            timedOut[flow] = new BitSet(plan.size(flow));
        }
        nextNew = new int[flows];
        queuedEnd = new int[flows];
        queuedMessages = new int[flows];
        cumulative = new int[flows];
        toResend = new int[flows];
        heldByReceiver = new int[flows];
        inFlight = new long[flows];
        started = new boolean[flows];
        completion = new long[flows];
        timerPending = new boolean[flows];
        retransmissions = new long[flows];
        nacks = new long[flows];
        timeouts = new long[flows];
        Arrays.fill(completion, -1);
    }

    /** Queues {@code flow}'s next message (its first: the flow starts). */
    public void start(final int flow, final long now) {
        if (!started[flow] && credit != null) {
            credit.start(flow);
        }
        started[flow] = true;
        if (queuedMessages[flow] < messageEnds[flow].length) {
            queuedEnd[flow] = messageEnds[flow][queuedMessages[flow]++];
        }
        if (canSend(flow)) {
            frames.ready(flow, now);
        }
    }

    /** Whether {@code flow} has a packet to send and room for it in its window. */
    public boolean canSend(final int flow) {
        return started[flow] && completion[flow] < 0 && (toResend[flow] > 0 || nextNew[flow] < queuedEnd[flow])
            && (!paced || nscc.window(flow) >= inFlight[flow] + packetBytes) && (credit == null || credit.canSend(flow));
    }

    /** The link's turn for {@code flow}: sends one packet, a retransmission if one waits. Call only when {@link #canSend}. */
    public void sendNext(final int flow, final long now) {
        sendNext(flow, 0, now);
    }

    /** As {@link #sendNext(int, long)}, while {@code sharing} other flows wait for the host's link: RCCC's pull target is split among them. */
    public void sendNext(final int flow, final int sharing, final long now) {
        final int psn;
        final boolean ackRequest;
        if (toResend[flow] > 0) {
            int next = cumulative[flow];
            while (state[flow][next] != TO_RESEND) {
                next++;
            }
            psn = next;
            toResend[flow]--;
            retransmissions[flow]++;
            ackRequest = true;
        } else {
            psn = nextNew[flow]++;
            ackRequest = nextNew[flow] == queuedEnd[flow] || paced && inFlight[flow] + 2L * packetBytes >= nscc.window(flow)
                || credit != null && credit.credit(flow) <= packetBytes;
        }
        long pullTarget = 0;
        if (credit != null) {
            credit.spend(flow, packetBytes);
            pullTarget = credit.pullTarget(flow, (long) (queuedEnd[flow] - nextNew[flow]) * packetBytes, (long) toResend[flow] * packetBytes,
                paced ? nscc.window(flow) : -1, sharing);
        }
        state[flow][psn] = IN_FLIGHT;
        if (sends[flow][psn] < Byte.MAX_VALUE) {
            sends[flow][psn]++;
        }
        sentAt[flow][psn] = now;
        inFlight[flow] += packetBytes;
        frames.data(flow, psn, balancers[flow].next(now), ackRequest, pullTarget, now);
        if (!timerPending[flow]) {
            timerPending[flow] = true;
            timers.retransmitAt(now + rto, flow);
        }
    }

    /**
     * An ACK of {@code psn}, of everything below {@code cumulativeAck} and of packet {@code sackBase} + i for each bit i of
     * {@code sackBits}, from a receiver holding {@code received} packets.
     */
    public void onAck(final int flow, final int psn, final int cumulativeAck, final int received, final int entropy, final boolean marked,
        final int sackBase, final long sackBits, final long now) {
        if (completion[flow] >= 0) {
            return;
        }
        long delivered = 0;
        if (received > heldByReceiver[flow]) {
            delivered = (long) (received - heldByReceiver[flow]) * packetBytes;
            heldByReceiver[flow] = received;
        }
        nscc.delivered(flow, delivered);
        final long delay = state[flow][psn] == IN_FLIGHT && sends[flow][psn] == 1
            ? nscc.sample(flow, now - sentAt[flow][psn], marked) : nscc.averageDelay(flow);
        for (int below = cumulative[flow]; below < cumulativeAck; below++) {
            acknowledge(flow, below, now);
        }
        cumulative[flow] = Math.max(cumulative[flow], cumulativeAck);
        long bits = sackBits;
        while (bits != 0) {
            final int bit = Long.numberOfTrailingZeros(bits);
            if (sackBase + bit < state[flow].length) {
                acknowledge(flow, sackBase + bit, now);
            }
            bits &= bits - 1;
        }
        acknowledge(flow, psn, now);
        balancers[flow].feedback(entropy, marked ? EntropyChoice.ECN : EntropyChoice.GOOD, now);
        nscc.inFlight(inFlight[flow]);
        if (paced) {
            nscc.onAck(flow, marked, delay, delivered, now);
        }
        if (credit != null) {
            credit.stopSpeculating(flow);
        }
        if (cumulative[flow] >= plan.size(flow)) {
            completion[flow] = now;
            completed++;
            return;
        }
        if (canSend(flow)) {
            frames.ready(flow, now);
        }
    }

    /**
     * The receiver holds {@code psn}. The flight is the packets sent and neither acknowledged nor given up (NACKed, timed
     * out): counted from each packet's state, a copy sent again for nothing never stays in it.
     */
    private void acknowledge(final int flow, final int psn, final long now) {
        if (state[flow][psn] == ACKED) {
            return;
        }
        final int[] ends = messageEnds[flow];
        int message = 0;
        if (ends.length > 1) {
            message = Arrays.binarySearch(ends, psn + 1);
            message = message >= 0 ? message : -message - 1;
        }
        if (++messageAcked[flow][message] == ends[message] - (message == 0 ? 0 : ends[message - 1])) {
            messageDone[flow][message] = now;
        }
        if (state[flow][psn] == TO_RESEND) {
            toResend[flow]--;
        } else if (state[flow][psn] == IN_FLIGHT) {
            inFlight[flow] -= packetBytes;
        }
        state[flow][psn] = ACKED;
    }

    /** {@code psn} arrived trimmed: it is sent again, and NSCC shrinks the window; a last-hop trim does not blame the path. */
    public void onNack(final int flow, final int psn, final int entropy, final boolean lastHop, final boolean marked, final long now) {
        nacks[flow]++;
        if (completion[flow] >= 0 || state[flow][psn] != IN_FLIGHT) {
            return;
        }
        nscc.inFlight(inFlight[flow]);
        // No round trip from a packet that timed out: the NACK of the copy sent before the timeout, arriving just after the
        // next copy left, would make the base round trip (and the largest window with it) all but zero.
        if (paced) {
            nscc.onNack(flow, packetBytes, timedOut[flow].get(psn) ? Long.MAX_VALUE : now - sentAt[flow][psn], credit == null || !lastHop, now);
        }
        if (credit != null) {
            credit.stopSpeculating(flow);
        }
        state[flow][psn] = TO_RESEND;
        toResend[flow]++;
        inFlight[flow] -= packetBytes;
        balancers[flow].feedback(entropy, lastHop ? (marked ? EntropyChoice.ECN : EntropyChoice.GOOD) : EntropyChoice.NACK, now);
        if (canSend(flow)) {
            frames.ready(flow, now);
        }
    }

    /** RCCC: a PULL granting credit up to the receiver's running count {@code pullNumber}, in quanta. */
    public void onPull(final int flow, final long pullNumber, final long now) {
        if (credit == null || completion[flow] >= 0) {
            return;
        }
        credit.stopSpeculating(flow);
        credit.onPull(flow, pullNumber);
        if (canSend(flow)) {
            frames.ready(flow, now);
        }
    }

    /** The timer: every packet in flight for a timeout is sent again; the timer then waits for the oldest left. */
    public void timeout(final int flow, final long now) {
        timerPending[flow] = false;
        if (completion[flow] >= 0) {
            return;
        }
        long oldest = Long.MAX_VALUE;
        boolean expired = false;
        for (int psn = cumulative[flow]; psn < nextNew[flow]; psn++) {
            if (state[flow][psn] != IN_FLIGHT) {
                continue;
            }
            if (sentAt[flow][psn] + rto <= now) {
                state[flow][psn] = TO_RESEND;
                timedOut[flow].set(psn);
                toResend[flow]++;
                inFlight[flow] -= packetBytes;
                nscc.onTimeout(flow, packetBytes);
                timeouts[flow]++;
                expired = true;
            } else {
                oldest = Math.min(oldest, sentAt[flow][psn]);
            }
        }
        if (expired) {
            balancers[flow].feedback(0, EntropyChoice.TIMEOUT, now);
        }
        if (oldest != Long.MAX_VALUE) {
            timerPending[flow] = true;
            timers.retransmitAt(oldest + rto, flow);
        }
        if (canSend(flow)) {
            frames.ready(flow, now);
        }
    }

    /** When every packet of {@code flow} was acknowledged; -1 while some is not. */
    public long completion(final int flow) {
        return completion[flow];
    }

    /** When every packet of message {@code message} of {@code flow} was acknowledged; -1 while some is not. */
    public long messageCompletion(final int flow, final int message) {
        return messageDone[flow][message];
    }

    public int completed() {
        return completed;
    }

    /** Packets sent again: after a NACK or a timeout. */
    public long retransmissions(final int flow) {
        return retransmissions[flow];
    }

    public long nacks(final int flow) {
        return nacks[flow];
    }

    public long timeouts(final int flow) {
        return timeouts[flow];
    }

    /** The flow's congestion window now, bytes. */
    public long window(final int flow) {
        return nscc.window(flow);
    }

    /** RCCC's credit, or null: NSCC alone paces the flows. */
    public RcccCredit credit() {
        return credit;
    }

    public long quickAdapts(final int flow) {
        return nscc.quickAdapts(flow);
    }

    public void reset() {
        for (int flow = 0; flow < state.length; flow++) {
            Arrays.fill(state[flow], UNSENT);
            Arrays.fill(sends[flow], (byte) 0);
            timedOut[flow].clear();
            Arrays.fill(messageAcked[flow], 0);
            Arrays.fill(messageDone[flow], -1);
            balancers[flow].reset();
        }
        nscc.reset();
        if (credit != null) {
            credit.reset();
        }
        Arrays.fill(nextNew, 0);
        Arrays.fill(queuedEnd, 0);
        Arrays.fill(queuedMessages, 0);
        Arrays.fill(cumulative, 0);
        Arrays.fill(toResend, 0);
        Arrays.fill(heldByReceiver, 0);
        Arrays.fill(inFlight, 0);
        Arrays.fill(started, false);
        Arrays.fill(completion, -1);
        Arrays.fill(timerPending, false);
        Arrays.fill(retransmissions, 0);
        Arrays.fill(nacks, 0);
        Arrays.fill(timeouts, 0);
        completed = 0;
    }
}
