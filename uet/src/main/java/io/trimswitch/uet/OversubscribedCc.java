package io.trimswitch.uet;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The oversubscribed receiver CC: each receiving host watches what reaches it and sets its pull pacer's rate, so that
 * receivers behind an oversubscribed tree pull no faster than the core carries. About every 1.5 base round trips
 * (randomised by ±25 %, so hosts do not act in step) it counts the data packets since the last look: each trimmed
 * before the last hop takes its share off the rate; the fraction ECN-marked among the whole ones feeds a moving average
 * (weight 0.5) that, above 0.3, cuts the rate by its excess times 0.5; with no cut the rate grows by 1 % (doubling each
 * look in a row while nothing was marked). The rate stays within 0.9 over the oversubscription and 1; on a tree that is
 * not oversubscribed (turned on by hand) within 0.01 and 1, as uet-htsim's.
 */
public final class OversubscribedCc {
    private static final double TARGET = 0.3;
    private static final double INCREASE = 0.01;
    private static final double DECREASE = 0.5;
    private static final double WEIGHT = 0.5;

    private final PullPacers pacers;
    private final UetTimers timers;
    private final double minRate;
    private final long baseRtt;
    private final long seed;
    private SplittableRandom random;
    private final double[] rate;
    private final double[] marked;
    private final int[] increases;
    private final long[][] counts;
    private final long[][] before;
    private long changes;

    private static final int RECEIVED = 0;
    private static final int ECN = 1;
    private static final int TRIMMED_LAST_HOP = 2;
    private static final int TRIMMED_BEFORE = 3;

    /**
     * @param oversubscription the tree's: its racks' hosts over their uplinks (times the pods' with three tiers), at least 1
     * @param baseRtt          the network's unloaded round trip, in the driver's time unit
     */
    public OversubscribedCc(final int hosts, final double oversubscription, final long baseRtt, final long seed, final PullPacers pacers,
        final UetTimers timers) {
        if (!(oversubscription >= 1) || baseRtt <= 0) {
            throw new IllegalArgumentException("the oversubscribed receiver CC needs a tree's oversubscription and a round trip");
        }
        this.pacers = pacers;
        this.timers = timers;
        this.minRate = oversubscription > 1 ? Math.max(0.9 / oversubscription, 0.01) : 0.01;
        this.baseRtt = baseRtt;
        this.seed = seed;
        rate = new double[hosts];
        marked = new double[hosts];
        increases = new int[hosts];
        counts = new long[hosts][4];
        before = new long[hosts][4];
        reset();
    }

    /** Every host's first look, one interval from {@code now}. */
    public void start(final long now) {
        for (int host = 0; host < rate.length; host++) {
            timers.congestionAt(now + interval(), host);
        }
    }

    private long interval() {
        return (long) ((0.75 + random.nextDouble() / 2) * 1.5 * baseRtt);
    }

    /** A data packet reached {@code host}, whole ({@code trimmed} false, ECN-marked or not) or trimmed, at the last hop or before. */
    public void onData(final int host, final boolean marked, final boolean trimmed, final boolean lastHop) {
        counts[host][RECEIVED]++;
        if (trimmed) {
            counts[host][lastHop ? TRIMMED_LAST_HOP : TRIMMED_BEFORE]++;
        } else if (marked) {
            counts[host][ECN]++;
        }
    }

    /** Host {@code host}'s look: sets its pull rate; the next look is asked for while {@code more} flows wait. */
    public void look(final int host, final long now, final boolean more) {
        final long[] c = counts[host];
        final long[] b = before[host];
        final long total = c[RECEIVED] - b[RECEIVED];
        final long ecn = c[ECN] - b[ECN];
        final long trimmedBefore = c[TRIMMED_BEFORE] - b[TRIMMED_BEFORE];
        final long whole = total - (c[TRIMMED_LAST_HOP] - b[TRIMMED_LAST_HOP]) - trimmedBefore;
        System.arraycopy(c, 0, b, 0, c.length);
        final double fraction = whole != 0 ? (double) ecn / whole : 0;
        boolean decrease = false;
        if (trimmedBefore > 0) {
            rate[host] -= (double) trimmedBefore / total;
            decrease = true;
        }
        marked[host] = marked[host] * (1 - WEIGHT) + WEIGHT * fraction;
        if (marked[host] > TARGET) {
            rate[host] *= 1 - (marked[host] - TARGET) * DECREASE;
            decrease = true;
        }
        if (decrease) {
            increases[host] = 0;
        } else {
            rate[host] += ecn == 0 ? INCREASE * Math.pow(2, increases[host]) : INCREASE;
            increases[host]++;
        }
        rate[host] = Math.min(Math.max(rate[host], minRate), 1);
        pacers.rate(host, rate[host]);
        changes++;
        if (more) {
            timers.congestionAt(now + interval(), host);
        }
    }

    /** Host {@code host}'s pull rate now, a fraction of its link's. */
    public double rate(final int host) {
        return rate[host];
    }

    /** The looks taken in the last run. */
    public long looks() {
        return changes;
    }

    public void reset() {
        random = new SplittableRandom(seed);
        Arrays.fill(rate, 1.0);
        Arrays.fill(marked, 0);
        Arrays.fill(increases, 0);
        for (int host = 0; host < rate.length; host++) {
            Arrays.fill(counts[host], 0);
            Arrays.fill(before[host], 0);
        }
        changes = 0;
    }
}
