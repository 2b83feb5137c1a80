package io.trimswitch.pipelines;

/**
 * One pipeline's trim-state registers: for every egress port the deadlines t0 (pessimistic until)
 * and t1 (halftimistic until), set by a congestion NOTIFY and read by every trimmable packet. Also
 * keeps how long each port spent in each state, for the run report.
 */
public final class TrimStateTable {
    private static final long NEVER = Long.MIN_VALUE;

    /** T0 and T1, replaced whole by a running switch's control thread; read at each NOTIFY. */
    private volatile Timing timing;
    /** The backlog-aware loop: a NOTIFY delayed by a DoD backlog holds the port pessimistic while that backlog drains. */
    private final boolean backlogAware;
    private final long[] t0;
    private final long[] t1;
    private final long[] pessimisticCoveredUntil;
    private final long[] congestedCoveredUntil;
    private final long[] pessimisticTime;
    private final long[] congestedTime;
    private final long[] notifications;
    private StateProbe probe = StateProbe.NONE;
    private int pipeline;

    /**
     * @param ports             egress ports
     * @param pessimisticPicos  T0: how long a NOTIFY makes the port pessimistic (0: no response)
     * @param halftimisticPicos T1 >= T0: how long until the port is optimistic again; T1 = T0 skips the halftimistic state
     */
    public TrimStateTable(final int ports, final long pessimisticPicos, final long halftimisticPicos) {
        this(ports, pessimisticPicos, halftimisticPicos, false);
    }

    /**
     * @param backlogAware a NOTIFY's age (how long its deflected packet waited in the DoD queue) stretches the pessimistic
     *                     state to at least that long, the halftimistic one by as much
     */
    public TrimStateTable(final int ports, final long pessimisticPicos, final long halftimisticPicos, final boolean backlogAware) {
        this.timing = new Timing(pessimisticPicos, halftimisticPicos);
        this.backlogAware = backlogAware;
        this.t0 = new long[ports];
        this.t1 = new long[ports];
        this.pessimisticCoveredUntil = new long[ports];
        this.congestedCoveredUntil = new long[ports];
        this.pessimisticTime = new long[ports];
        this.congestedTime = new long[ports];
        this.notifications = new long[ports];
        reset();
    }

    /** T0 and T1 together, so that a NOTIFY never sees one changed without the other. */
    private record Timing(long pessimisticPicos, long halftimisticPicos) {
        Timing {
            if (pessimisticPicos < 0 || halftimisticPicos < pessimisticPicos) {
                throw new IllegalArgumentException("trim state durations need 0 <= T0 <= T1, got T0 " + pessimisticPicos + " ps, T1 " + halftimisticPicos + " ps");
            }
        }
    }

    /** New T0 and T1 for the NOTIFYs that come from now on; states already set run their course. */
    public void retime(final long pessimisticPicos, final long halftimisticPicos) {
        this.timing = new Timing(pessimisticPicos, halftimisticPicos);
    }

    /** A congestion NOTIFY for {@code port} reached this pipeline at {@code now}. */
    public void onNotify(final int port, final long now) {
        onNotify(port, 0, now);
    }

    /**
     * A congestion NOTIFY for {@code port} reached this pipeline at {@code now}, {@code agePicos} after its packet was
     * deflected. The paper's loop ignores the age. The backlog-aware loop reads it as the time the DoD queue ahead of
     * the packet took to drain: packets deflected behind it will keep coming back for about as long, so the port stays
     * pessimistic at least that long, and halftimistic as much longer. In hardware the age is the difference of two
     * timestamps the recirculated packet carries: no queue depth is read.
     */
    public void onNotify(final int port, final long agePicos, final long now) {
        notifications[port]++;
        final Timing timing = this.timing;
        final long pessimisticPicos = timing.pessimisticPicos();
        final long halftimisticPicos = timing.halftimisticPicos();
        if (halftimisticPicos == 0) {
            return;
        }
        final long stretch = backlogAware ? agePicos : 0;
        final long pessimistic = pessimisticPicos > 0 ? Math.max(pessimisticPicos, stretch) : 0;
        final long halftimistic = halftimisticPicos + stretch;
        if (pessimistic > 0) {
            // A stretched state is never cut short by a later, fresher NOTIFY.
            t0[port] = backlogAware ? Math.max(t0[port], now + pessimistic) : now + pessimistic;
            pessimisticTime[port] += extend(pessimisticCoveredUntil, port, now, pessimistic);
        }
        t1[port] = backlogAware ? Math.max(t1[port], now + halftimistic) : now + halftimistic;
        congestedTime[port] += extend(congestedCoveredUntil, port, now, halftimistic);
        probe.onNotify(pipeline, port, now, t0[port], t1[port]);
    }

    /** The state a packet to {@code port} arriving at {@code now} sees. */
    public int state(final int port, final long now) {
        if (now <= t0[port]) {
            return TrimState.PESSIMISTIC;
        }
        if (now <= t1[port]) {
            return TrimState.HALFTIMISTIC;
        }
        t0[port] = NEVER;
        t1[port] = NEVER;
        return TrimState.OPTIMISTIC;
    }

    /** Union-of-intervals bookkeeping: the part of [now, now + duration] not already counted. */
    private static long extend(final long[] coveredUntil, final int port, final long now, final long duration) {
        final long end = now + duration;
        final long added = Math.max(0, end - Math.max(now, coveredUntil[port]));
        coveredUntil[port] = Math.max(coveredUntil[port], end);
        return added;
    }

    /** Time {@code port} spent pessimistic up to {@code runEnd}. */
    public long pessimisticTime(final int port, final long runEnd) {
        return pessimisticTime[port] - Math.max(0, pessimisticCoveredUntil[port] - runEnd);
    }

    /** Time {@code port} spent halftimistic up to {@code runEnd}. */
    public long halftimisticTime(final int port, final long runEnd) {
        final long congested = congestedTime[port] - Math.max(0, congestedCoveredUntil[port] - runEnd);
        return congested - pessimisticTime(port, runEnd);
    }

    public long notifications(final int port) {
        return notifications[port];
    }

    public int ports() {
        return t0.length;
    }

    /** Records state changes for timelines; {@link StateProbe#NONE} costs nothing. */
    public void probe(final int pipelineId, final StateProbe stateProbe) {
        this.pipeline = pipelineId;
        this.probe = stateProbe;
    }

    public void reset() {
        java.util.Arrays.fill(t0, NEVER);
        java.util.Arrays.fill(t1, NEVER);
        java.util.Arrays.fill(pessimisticCoveredUntil, 0);
        java.util.Arrays.fill(congestedCoveredUntil, 0);
        java.util.Arrays.fill(pessimisticTime, 0);
        java.util.Arrays.fill(congestedTime, 0);
        java.util.Arrays.fill(notifications, 0);
    }
}
