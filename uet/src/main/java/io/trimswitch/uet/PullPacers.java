package io.trimswitch.uet;

import java.util.Arrays;

/**
 * RCCC's side at the receivers: each receiving host's pull pacer. A flow whose data raises its pull target (the credit
 * its sender asks for, a running count in quanta of {@link RcccCredit#QUANTUM} bytes), or whose packet arrives trimmed,
 * joins its host's active flows. Each turn the pacer grants the first active flow up to a pull's credit (four MTUs of
 * payload), never past its target, and sends it a PULL carrying the flow's running count; a flow still short of its
 * target waits again, one that reached it turns idle. With no active flow, idle ones get a pull's credit beyond their
 * target (a slow pull), until each holds the largest credit beyond it. The next turn comes after the granted credit's
 * time at the host's link rate over 0.99 (at least 1024 bytes' time), slower while the oversubscribed receiver CC
 * lowers the rate. Time is passed in; state lives in arrays, so a turn allocates nothing.
 */
public final class PullPacers {
    /** Time between pulls that grant nothing, in quanta. */
    private static final int IDLE_QUANTA = 1024 / RcccCredit.QUANTUM;
    /** Pulls run just below line rate. */
    private static final double PULL_RATE = 0.99;

    private final int[] receiverOf;
    private final UetFrames frames;
    private final UetTimers timers;
    private final long creditPerPull;
    private final long maxCredit;
    private final long timePerQuantum;
    private final long[] highestTarget;
    private final long[] latestPull;
    private final boolean[] inPull;
    private final boolean[] inSlow;
    private final boolean[] inActive;
    private final boolean[] inIdle;
    private final int[][] active;
    private final int[] activeHead;
    private final int[] activeCount;
    private final int[][] idle;
    private final int[] idleHead;
    private final int[] idleCount;
    private final boolean[] running;
    private final double[] rate;
    private final long[] pulls;
    private final long[] granted;

    /**
     * @param receiverOf     each flow's receiving host
     * @param hosts          the hosts
     * @param payloadBytes   an MTU's payload: a pull grants four, rounded down to quanta
     * @param maxCreditBytes the most credit a sender holds: slow pulls stop that far beyond a flow's target
     * @param linkBps        the receivers' link rate
     */
    public PullPacers(final int[] receiverOf, final int hosts, final int payloadBytes, final long maxCreditBytes, final long linkBps,
        final UetFrames frames, final UetTimers timers) {
        if (payloadBytes < RcccCredit.QUANTUM / 4 || linkBps <= 0) {
            throw new IllegalArgumentException("pull pacers need a payload of at least 64 bytes and a positive rate");
        }
        this.receiverOf = receiverOf.clone();
        this.frames = frames;
        this.timers = timers;
        this.creditPerPull = 4L * payloadBytes / RcccCredit.QUANTUM;
        this.maxCredit = maxCreditBytes / RcccCredit.QUANTUM;
        this.timePerQuantum = (long) (8.0 * RcccCredit.QUANTUM * 1e12 / linkBps / PULL_RATE);
        final int flows = receiverOf.length;
        highestTarget = new long[flows];
        latestPull = new long[flows];
        inPull = new boolean[flows];
        inSlow = new boolean[flows];
        inActive = new boolean[flows];
        inIdle = new boolean[flows];
        final int[] perHost = new int[hosts];
        for (final int host : receiverOf) {
            perHost[host]++;
        }
        active = new int[hosts][];
        idle = new int[hosts][];
        for (int host = 0; host < hosts; host++) {
            active[host] = new int[Math.max(1, perHost[host])];
            idle[host] = new int[Math.max(1, perHost[host])];
        }
        activeHead = new int[hosts];
        activeCount = new int[hosts];
        idleHead = new int[hosts];
        idleCount = new int[hosts];
        running = new boolean[hosts];
        rate = new double[hosts];
        pulls = new long[flows];
        granted = new long[flows];
        reset();
    }

    /** A data packet of {@code flow} carried pull target {@code target}: a higher one makes the flow active. */
    public void onPullTarget(final int flow, final long target, final long now) {
        if (target > highestTarget[flow]) {
            highestTarget[flow] = target;
            if (!inPull[flow]) {
                request(flow, now);
            }
        }
    }

    /** A packet of {@code flow} arrived trimmed: its sender will send it again, so the flow is pulled. */
    public void onTrimmed(final int flow, final long now) {
        if (!inPull[flow]) {
            request(flow, now);
        }
    }

    private void request(final int flow, final long now) {
        inPull[flow] = true;
        final int host = receiverOf[flow];
        if (!inActive[flow]) {
            inActive[flow] = true;
            active[host][(activeHead[host] + activeCount[host]++) % active[host].length] = flow;
        }
        if (!running[host]) {
            running[host] = true;
            timers.pullAt(now, host);
        }
    }

    /** Host {@code host}'s pacer's turn: one PULL, and the next turn asked for; none when no flow waits. */
    public void turn(final int host, final long now) {
        final int flow;
        long extra;
        if (activeCount[host] > 0) {
            flow = active[host][activeHead[host]];
            activeHead[host] = (activeHead[host] + 1) % active[host].length;
            activeCount[host]--;
            inActive[flow] = false;
            final long before = latestPull[flow];
            latestPull[flow] = Math.min(before + creditPerPull, Math.max(highestTarget[flow], before));
            extra = latestPull[flow] - before;
            if (highestTarget[flow] > latestPull[flow]) {
                inActive[flow] = true;
                active[host][(activeHead[host] + activeCount[host]++) % active[host].length] = flow;
            } else {
                toIdle(host, flow);
                inPull[flow] = false;
                inSlow[flow] = true;
            }
        } else if (idleCount[host] > 0) {
            flow = idle[host][idleHead[host]];
            idleHead[host] = (idleHead[host] + 1) % idle[host].length;
            idleCount[host]--;
            inIdle[flow] = false;
            if (!inSlow[flow]) {
                inPull[flow] = false;
                inSlow[flow] = true;
            }
            extra = creditPerPull;
            latestPull[flow] += extra;
            if (highestTarget[flow] <= latestPull[flow] && latestPull[flow] - highestTarget[flow] < maxCredit) {
                toIdle(host, flow);
            } else {
                inPull[flow] = false;
                inSlow[flow] = false;
            }
        } else {
            running[host] = false;
            return;
        }
        pulls[flow]++;
        granted[flow] += extra;
        frames.pull(flow, latestPull[flow], now);
        if (extra == 0) {
            extra = IDLE_QUANTA;
        }
        timers.pullAt(now + (long) (timePerQuantum / rate[host]) * extra, host);
    }

    private void toIdle(final int host, final int flow) {
        if (!inIdle[flow]) {
            inIdle[flow] = true;
            idle[host][(idleHead[host] + idleCount[host]++) % idle[host].length] = flow;
        }
    }

    /** The oversubscribed receiver CC sets host {@code host}'s pull rate, a fraction of its link's. */
    public void rate(final int host, final double fraction) {
        rate[host] = fraction;
    }

    /** PULLs sent to {@code flow}'s sender in the last run. */
    public long pulls(final int flow) {
        return pulls[flow];
    }

    /** Credit those PULLs granted, bytes. */
    public long grantedBytes(final int flow) {
        return granted[flow] * RcccCredit.QUANTUM;
    }

    public void reset() {
        Arrays.fill(highestTarget, 0);
        Arrays.fill(latestPull, 0);
        Arrays.fill(inPull, false);
        Arrays.fill(inSlow, false);
        Arrays.fill(inActive, false);
        Arrays.fill(inIdle, false);
        Arrays.fill(activeHead, 0);
        Arrays.fill(activeCount, 0);
        Arrays.fill(idleHead, 0);
        Arrays.fill(idleCount, 0);
        Arrays.fill(running, false);
        Arrays.fill(rate, 1.0);
        Arrays.fill(pulls, 0);
        Arrays.fill(granted, 0);
    }
}
