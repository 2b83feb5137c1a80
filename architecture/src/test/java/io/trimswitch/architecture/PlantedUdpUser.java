package io.trimswitch.architecture;

import io.trimswitch.live.udp.Udp;

/** A class outside the udp kind's package that names its registration: what {@link PortKindRuleTest} plants. */
final class PlantedUdpUser {
    private PlantedUdpUser() {
    }

    static String kindName() {
        return new Udp().name();
    }
}
