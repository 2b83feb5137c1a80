package io.trimswitch.simulator.mechanism;

import io.trimswitch.config.Mechanism;
import io.trimswitch.switching.mechanism.MechanismParts;
import io.trimswitch.switching.mechanism.SwitchMechanism;
import io.trimswitch.trafficmanager.DataQueueOverflow;

/** A mechanism from outside the built-in ones: deflect-on-drop without meters, one recirculation port per four ports. */
final class FourPortDeflection implements SwitchMechanism {
    static final Mechanism MECHANISM = new Mechanism("dod-per-4", "Deflect-on-drop, one recirculation port per four ports", 4,
        "mechanism dod-per-4 runs only with clock virtual", false);

    @Override
    public Mechanism mechanism() {
        return MECHANISM;
    }

    @Override
    public DataQueueOverflow overflow(final MechanismParts parts) {
        return parts.deflectOnDrop();
    }
}
