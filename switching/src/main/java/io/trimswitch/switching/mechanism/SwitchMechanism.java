package io.trimswitch.switching.mechanism;

import io.trimswitch.config.Mechanism;
import io.trimswitch.pipelines.IngressMeters;
import io.trimswitch.trafficmanager.DataQueueOverflow;

/**
 * What a trimming mechanism builds into the switch: what happens to a packet that meets a full data queue, the
 * pipelines' meters, and whether deflections raise congestion signals. A new mechanism is one class of this and its
 * registration ({@link Mechanisms#register}); the switch's assembly names none of them.
 */
public interface SwitchMechanism {
    /** Its name and the facts settings need, recirculation layout included. */
    Mechanism mechanism();

    /** The traffic manager's handling of a full data queue; its recirculation queues feed the recirculation ports. */
    DataQueueOverflow overflow(MechanismParts parts);

    /** Each pipeline's ingress meters (an element may be shared, or null: none); by default none. */
    default IngressMeters[] meters(final MechanismParts parts) {
        return parts.shared(null);
    }

    /** Whether a deflection raises a congestion signal (NOTIFY) to the pipelines; by default not. */
    default boolean raisesSignals() {
        return false;
    }
}
