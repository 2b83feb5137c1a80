package io.trimswitch.switching.mechanism;

import io.trimswitch.config.Mechanism;
import io.trimswitch.trafficmanager.DataQueueOverflow;
import io.trimswitch.trafficmanager.MirrorOnDrop;

/** Mirror-on-drop: a dropped packet's header leaves through its pipeline's mirror port; no ingress meters. */
final class MirrorOnDropMechanism implements SwitchMechanism {
    @Override
    public Mechanism mechanism() {
        return Mechanism.MOD;
    }

    @Override
    public DataQueueOverflow overflow(final MechanismParts parts) {
        return new MirrorOnDrop(parts.recirculationPorts(), parts.portsPerRecirculationPort(),
            parts.settings().recirculation().mirrorQueuePackets(), parts.queues());
    }
}
