package io.trimswitch.architecture;

import io.trimswitch.sockets.KernelSocketDrops;

/** A class outside the udp kind's package that reaches its sockets: what {@link PortKindRuleTest} plants. */
final class PlantedSocketUser {
    private PlantedSocketUser() {
    }

    static long drops() {
        try (KernelSocketDrops table = KernelSocketDrops.open()) {
            return table.drops(4789);
        }
    }
}
