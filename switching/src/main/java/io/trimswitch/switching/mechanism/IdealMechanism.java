package io.trimswitch.switching.mechanism;

import io.trimswitch.config.Mechanism;
import io.trimswitch.trafficmanager.DataQueueOverflow;
import io.trimswitch.trafficmanager.IdealTrimming;

/** The output-queued reference: a full data queue trims at enqueue; no meters, no recirculation. */
final class IdealMechanism implements SwitchMechanism {
    /** Mixed into the workload's seed so that the trimming coin is not the workload's own random stream. */
    private static final long COIN_SALT = 0x5DEECE66DL;

    @Override
    public Mechanism mechanism() {
        return Mechanism.IDEAL;
    }

    @Override
    public DataQueueOverflow overflow(final MechanismParts parts) {
        return new IdealTrimming(parts.settings().workload().seed() ^ COIN_SALT);
    }
}
