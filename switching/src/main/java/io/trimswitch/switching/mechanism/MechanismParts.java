package io.trimswitch.switching.mechanism;

import io.trimswitch.config.Settings;
import io.trimswitch.pipelines.IngressMeters;
import io.trimswitch.trafficmanager.DataQueueOverflow;
import io.trimswitch.trafficmanager.DeflectOnDrop;
import io.trimswitch.trafficmanager.EgressPort;
import io.trimswitch.trafficmanager.QueueFactory;

import java.util.Arrays;
import java.util.function.Supplier;

/** What a mechanism builds its parts from: the settings, the queues' kind, and the switch's egress ports. */
public record MechanismParts(Settings settings, QueueFactory queues, EgressPort[] ports) {
    /** The recirculation ports the mechanism's layout gives the switch. */
    public int recirculationPorts() {
        return settings.recirculationPorts();
    }

    /** The ports each recirculation port takes the deflections of. */
    public int portsPerRecirculationPort() {
        return settings.mechanism().portsPerRecirculationPort(settings.fabric().portsPerPipeline());
    }

    /** Deflect-on-drop: one DoD queue per recirculation port, each taking what its ports' packets deflect. */
    public DataQueueOverflow deflectOnDrop() {
        return new DeflectOnDrop(recirculationPorts(), portsPerRecirculationPort(), settings.recirculation().dodQueuePackets(), queues);
    }

    /** One set of meters read by every pipeline. */
    public IngressMeters[] shared(final IngressMeters meters) {
        final IngressMeters[] each = new IngressMeters[settings.fabric().pipelines()];
        Arrays.fill(each, meters);
        return each;
    }

    /** A set of meters of its own for each pipeline. */
    public IngressMeters[] perPipeline(final Supplier<IngressMeters> meters) {
        final IngressMeters[] each = new IngressMeters[settings.fabric().pipelines()];
        for (int pipeline = 0; pipeline < each.length; pipeline++) {
            each[pipeline] = meters.get();
        }
        return each;
    }
}
