package io.trimswitch.architecture;

import io.trimswitch.uet.UetTransport;

/** A class outside the UET transport's module that names one of its classes: what {@link TransportRuleTest} plants. */
final class PlantedTransportUser {
    private PlantedTransportUser() {
    }

    static String transportName() {
        return new UetTransport().name();
    }
}
