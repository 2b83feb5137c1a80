package io.trimswitch.switching.mechanism;

import io.trimswitch.config.Mechanism;
import io.trimswitch.pipelines.IngressMeters;
import io.trimswitch.trafficmanager.DataQueueOverflow;

/**
 * Optimistic rate meters at ingress and deflect-on-drop in the traffic manager ({@code dod}); with congestion signals
 * to the pipelines, Tofino's full design ({@code tofino}).
 */
final class DeflectOnDropMechanism implements SwitchMechanism {
    private final Mechanism mechanism;
    private final boolean signals;

    DeflectOnDropMechanism(final Mechanism mechanism, final boolean signals) {
        this.mechanism = mechanism;
        this.signals = signals;
    }

    @Override
    public Mechanism mechanism() {
        return mechanism;
    }

    @Override
    public DataQueueOverflow overflow(final MechanismParts parts) {
        return parts.deflectOnDrop();
    }

    @Override
    public IngressMeters[] meters(final MechanismParts parts) {
        return parts.perPipeline(() -> RateMeters.of(parts.settings(), parts.ports().length));
    }

    @Override
    public boolean raisesSignals() {
        return signals;
    }
}
