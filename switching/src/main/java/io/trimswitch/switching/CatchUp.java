package io.trimswitch.switching;

import java.util.List;

/**
 * The one ordering rule between a switch's parts, whichever clock drives them: before a packet arriving at time t is
 * metered, recirculation is brought up to t, then egress. Recirculation first, so that a header back from its loop
 * is in its queue when egress chooses. A packet from outside that arrives at t comes before a transmission ending
 * at t: the parts are brought up to just before it.
 */
public final class CatchUp {
    /** A part of the switch that does, when asked, everything due by a switch time; returns how much it did. */
    @FunctionalInterface
    public interface Stage {
        int advanceTo(long time);
    }

    private final Stage[] recirculation;
    private final Stage[] egress;

    public CatchUp(final List<? extends Stage> recirculation, final List<? extends Stage> egress) {
        this.recirculation = recirculation.toArray(new Stage[0]);
        this.egress = egress.toArray(new Stage[0]);
    }

    /** Brings recirculation, then egress, up to {@code time}; returns the work done. */
    public int advanceTo(final long time) {
        int work = 0;
        for (final Stage stage : recirculation) {
            work += stage.advanceTo(time);
        }
        for (final Stage stage : egress) {
            work += stage.advanceTo(time);
        }
        return work;
    }

    /** How far the parts may go before a packet that arrives at {@code arrival}, from outside or from within the switch. */
    public static long horizon(final long arrival, final boolean fromOutside) {
        return fromOutside ? arrival - 1 : arrival;
    }
}
