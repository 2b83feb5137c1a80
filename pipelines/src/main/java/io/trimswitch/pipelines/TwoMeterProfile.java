package io.trimswitch.pipelines;

/**
 * The production-router profile, for switches that can spare only two meters per port: {@code opti}
 * with PIR = R, CIR = R/2 serves the optimistic and halftimistic states, {@code pesi} with
 * PIR = CIR = R/4 the pessimistic one.
 *
 * <pre>
 * state         pesi        opti        action
 * pessimistic   not GREEN   *           trim
 * halftimistic  *           not GREEN   trim
 * optimistic    *           RED         trim
 * otherwise                             data queue
 * </pre>
 */
public final class TwoMeterProfile implements IngressMeters {
    /** A port's pair is replaced whole by {@link #retune}: the pipeline's thread reads it with an acquire load. */
    private static final java.lang.invoke.VarHandle PORT = java.lang.invoke.MethodHandles.arrayElementVarHandle(TrTcmMeter[][].class);
    private static final int OPTI = 0;
    private static final int PESI = 1;
    /** Per port: {opti, pesi}. */
    private final TrTcmMeter[][] meters;

    public TwoMeterProfile(
        final int ports, final long optimisticRate, final long halftimisticRate, final long pessimisticRate, final int burstBytes) {
        this(ThreeMeterProfile.filled(ports, optimisticRate), ThreeMeterProfile.filled(ports, halftimisticRate),
            ThreeMeterProfile.filled(ports, pessimisticRate), burstBytes);
    }

    /** Rates per egress port (bits per second), for switches whose ports run at different rates. */
    public TwoMeterProfile(final long[] optimisticRate, final long[] halftimisticRate, final long[] pessimisticRate, final int burstBytes) {
        meters = new TrTcmMeter[optimisticRate.length][];
        for (int port = 0; port < optimisticRate.length; port++) {
            meters[port] = portMeters(optimisticRate[port], halftimisticRate[port], pessimisticRate[port], burstBytes);
        }
    }

    private static TrTcmMeter[] portMeters(final long optimisticRate, final long halftimisticRate, final long pessimisticRate, final int burstBytes) {
        return new TrTcmMeter[] {new TrTcmMeter(optimisticRate, burstBytes, halftimisticRate, burstBytes), TrTcmMeter.singleRate(pessimisticRate, burstBytes)};
    }

    @Override
    public void retune(final int egressPort, final long optimisticRate, final long halftimisticRate, final long pessimisticRate,
        final int burstBytes) {
        PORT.setRelease(meters, egressPort, portMeters(optimisticRate, halftimisticRate, pessimisticRate, burstBytes));
    }

    @Override
    public boolean shouldTrim(final int egressPort, final int state, final int bytes, final long now) {
        final TrTcmMeter[] portMeters = (TrTcmMeter[]) PORT.getAcquire(meters, egressPort);
        final int optiColour = portMeters[OPTI].mark(bytes, now);
        final int pesiColour = portMeters[PESI].mark(bytes, now);
        return decide(state, pesiColour, optiColour);
    }

    /** The decision table, on its own so that every row can be tested. */
    public static boolean decide(final int state, final int pesiColour, final int optiColour) {
        switch (state) {
            case TrimState.PESSIMISTIC:
                return pesiColour != TrTcmMeter.GREEN;
            case TrimState.HALFTIMISTIC:
                return optiColour != TrTcmMeter.GREEN;
            default:
                return optiColour == TrTcmMeter.RED;
        }
    }

    @Override
    public void reset() {
        for (final TrTcmMeter[] portMeters : meters) {
            portMeters[OPTI].reset();
            portMeters[PESI].reset();
        }
    }
}
