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
    private final TrTcmMeter[] opti;
    private final TrTcmMeter[] pesi;

    public TwoMeterProfile(
        final int ports, final long optimisticRate, final long halftimisticRate, final long pessimisticRate, final int burstBytes) {
        this(ThreeMeterProfile.filled(ports, optimisticRate), ThreeMeterProfile.filled(ports, halftimisticRate),
            ThreeMeterProfile.filled(ports, pessimisticRate), burstBytes);
    }

    /** Rates per egress port (bits per second), for switches whose ports run at different rates. */
    public TwoMeterProfile(final long[] optimisticRate, final long[] halftimisticRate, final long[] pessimisticRate, final int burstBytes) {
        opti = new TrTcmMeter[optimisticRate.length];
        pesi = new TrTcmMeter[optimisticRate.length];
        for (int port = 0; port < optimisticRate.length; port++) {
            opti[port] = new TrTcmMeter(optimisticRate[port], burstBytes, halftimisticRate[port], burstBytes);
            pesi[port] = TrTcmMeter.singleRate(pessimisticRate[port], burstBytes);
        }
    }

    @Override
    public boolean shouldTrim(final int egressPort, final int state, final int bytes, final long now) {
        final int optiColour = opti[egressPort].mark(bytes, now);
        final int pesiColour = pesi[egressPort].mark(bytes, now);
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
        for (int port = 0; port < opti.length; port++) {
            opti[port].reset();
            pesi[port].reset();
        }
    }
}
