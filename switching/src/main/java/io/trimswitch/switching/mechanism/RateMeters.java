package io.trimswitch.switching.mechanism;

import io.trimswitch.config.Settings;
import io.trimswitch.pipelines.IngressMeters;
import io.trimswitch.pipelines.ThreeMeterProfile;
import io.trimswitch.pipelines.TwoMeterProfile;

/** The ingress meters of the rate-metering mechanisms: each port's optimistic, halftimistic and pessimistic rates. */
final class RateMeters {
    private RateMeters() {
    }

    static IngressMeters of(final Settings settings, final int portCount) {
        final long[] rate = new long[portCount];
        final long[] half = new long[portCount];
        final long[] pessimistic = new long[portCount];
        for (int port = 0; port < portCount; port++) {
            rate[port] = settings.portRateBps(port);
            half[port] = settings.halftimisticRateBps(port);
            pessimistic[port] = settings.pessimisticRateBps(port);
        }
        final int burst = settings.meterBurstBytes();
        return settings.control().meters() == Settings.MeterProfile.TWO
            ? new TwoMeterProfile(rate, half, pessimistic, burst)
            : new ThreeMeterProfile(rate, half, pessimistic, burst);
    }
}
