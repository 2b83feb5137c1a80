package io.trimswitch.pipelines;

/**
 * The standalone-router profile: one single-rate meter per state (R, R/2, R/4 by default), each with
 * PIR = CIR = its rate; trim when the meter of the current state is RED.
 */
public final class ThreeMeterProfile implements IngressMeters {
    /** A port's meters are replaced whole by {@link #retune}: the pipeline's thread reads them with acquire loads. */
    private static final java.lang.invoke.VarHandle PORT = java.lang.invoke.MethodHandles.arrayElementVarHandle(TrTcmMeter[][].class);
    private final TrTcmMeter[][] meters;

    public ThreeMeterProfile(
        final int ports, final long optimisticRate, final long halftimisticRate, final long pessimisticRate, final int burstBytes) {
        this(filled(ports, optimisticRate), filled(ports, halftimisticRate), filled(ports, pessimisticRate), burstBytes);
    }

    /** Rates per egress port (bits per second), for switches whose ports run at different rates. */
    public ThreeMeterProfile(final long[] optimisticRate, final long[] halftimisticRate, final long[] pessimisticRate, final int burstBytes) {
        meters = new TrTcmMeter[optimisticRate.length][TrimState.COUNT];
        for (int port = 0; port < optimisticRate.length; port++) {
            meters[port] = portMeters(optimisticRate[port], halftimisticRate[port], pessimisticRate[port], burstBytes);
        }
    }

    private static TrTcmMeter[] portMeters(final long optimisticRate, final long halftimisticRate, final long pessimisticRate, final int burstBytes) {
        final TrTcmMeter[] portMeters = new TrTcmMeter[TrimState.COUNT];
        portMeters[TrimState.OPTIMISTIC] = TrTcmMeter.singleRate(optimisticRate, burstBytes);
        portMeters[TrimState.HALFTIMISTIC] = TrTcmMeter.singleRate(halftimisticRate, burstBytes);
        portMeters[TrimState.PESSIMISTIC] = TrTcmMeter.singleRate(pessimisticRate, burstBytes);
        return portMeters;
    }

    @Override
    public void retune(final int egressPort, final long optimisticRate, final long halftimisticRate, final long pessimisticRate,
        final int burstBytes) {
        PORT.setRelease(meters, egressPort, portMeters(optimisticRate, halftimisticRate, pessimisticRate, burstBytes));
    }

    static long[] filled(final int ports, final long rate) {
        final long[] rates = new long[ports];
        java.util.Arrays.fill(rates, rate);
        return rates;
    }

    @Override
    public boolean shouldTrim(final int egressPort, final int state, final int bytes, final long now) {
        final TrTcmMeter[] portMeters = (TrTcmMeter[]) PORT.getAcquire(meters, egressPort);
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
