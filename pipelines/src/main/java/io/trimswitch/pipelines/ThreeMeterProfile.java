package io.trimswitch.pipelines;

/**
 * The standalone-router profile: one single-rate meter per state (R, R/2, R/4 by default), each with
 * PIR = CIR = its rate; trim when the meter of the current state is RED.
 */
public final class ThreeMeterProfile implements IngressMeters {
    private final TrTcmMeter[][] meters;

    public ThreeMeterProfile(
        final int ports, final long optimisticRate, final long halftimisticRate, final long pessimisticRate, final int burstBytes) {
        this(filled(ports, optimisticRate), filled(ports, halftimisticRate), filled(ports, pessimisticRate), burstBytes);
    }

    /** Rates per egress port (bits per second), for switches whose ports run at different rates. */
    public ThreeMeterProfile(final long[] optimisticRate, final long[] halftimisticRate, final long[] pessimisticRate, final int burstBytes) {
        meters = new TrTcmMeter[optimisticRate.length][TrimState.COUNT];
        for (int port = 0; port < optimisticRate.length; port++) {
            meters[port][TrimState.OPTIMISTIC] = TrTcmMeter.singleRate(optimisticRate[port], burstBytes);
            meters[port][TrimState.HALFTIMISTIC] = TrTcmMeter.singleRate(halftimisticRate[port], burstBytes);
            meters[port][TrimState.PESSIMISTIC] = TrTcmMeter.singleRate(pessimisticRate[port], burstBytes);
        }
    }

    static long[] filled(final int ports, final long rate) {
        final long[] rates = new long[ports];
        java.util.Arrays.fill(rates, rate);
        return rates;
    }

    @Override
    public boolean shouldTrim(final int egressPort, final int state, final int bytes, final long now) {
        final TrTcmMeter[] portMeters = meters[egressPort];
        final int optimistic = portMeters[TrimState.OPTIMISTIC].mark(bytes, now);
        final int halftimistic = portMeters[TrimState.HALFTIMISTIC].mark(bytes, now);
        final int pessimistic = portMeters[TrimState.PESSIMISTIC].mark(bytes, now);
        final int colour = state == TrimState.OPTIMISTIC ? optimistic : state == TrimState.HALFTIMISTIC ? halftimistic : pessimistic;
        return colour == TrTcmMeter.RED;
    }

    @Override
    public void reset() {
        for (final TrTcmMeter[] portMeters : meters) {
            for (final TrTcmMeter meter : portMeters) {
                meter.reset();
            }
        }
    }
}
