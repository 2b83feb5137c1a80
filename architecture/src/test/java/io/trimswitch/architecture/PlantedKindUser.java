package io.trimswitch.architecture;

import io.trimswitch.interfaces.afxdp.AfXdp;

/** A class outside the af_xdp kind's package that names one of its classes: what {@link PortKindRuleTest} plants. */
final class PlantedKindUser {
    private PlantedKindUser() {
    }

    static String kindName() {
        return new AfXdp().name();
    }
}
