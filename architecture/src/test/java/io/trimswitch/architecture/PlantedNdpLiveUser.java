package io.trimswitch.architecture;

import io.trimswitch.ndp.live.NdpLiveCommand;

/** A class outside the NDP transport's folder that names its live command, as the tool must not: what {@link TransportRuleTest} plants. */
final class PlantedNdpLiveUser {
    private PlantedNdpLiveUser() {
    }

    static String commandName() {
        return new NdpLiveCommand().name();
    }
}
