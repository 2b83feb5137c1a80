package io.trimswitch.switching.mechanism;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.pipelines.IngressMeters;
import io.trimswitch.pipelines.QueueDepthTrimming;
import io.trimswitch.trafficmanager.DataQueueOverflow;
import io.trimswitch.trafficmanager.EgressPort;

/** Tofino 2: ingress trims on the egress queue's depth it reads; deflect-on-drop catches what slips through. */
final class QueueDepthMechanism implements SwitchMechanism {
    @Override
    public Mechanism mechanism() {
        return Mechanism.TOFINO2;
    }

    @Override
    public DataQueueOverflow overflow(final MechanismParts parts) {
        return parts.deflectOnDrop();
    }

    /** The depth reads are stale by what every pipeline's later stages hold: one view for all pipelines. */
    @Override
    public IngressMeters[] meters(final MechanismParts parts) {
        final Settings settings = parts.settings();
        final EgressPort[] ports = parts.ports();
        final int queue = settings.depthReadQueue();
        return parts.shared(new QueueDepthTrimming(ports.length, port -> ports[port].dataQueue(queue).size(),
            settings.depthThresholdPackets(), settings.control().staleStages() * settings.fabric().pipelines()));
    }
}
