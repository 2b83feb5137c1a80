package io.trimswitch.architecture;

import io.trimswitch.ndp.NdpSender;

/** A class outside the NDP transport's folder that names its state machine: what {@link TransportRuleTest} plants. */
final class PlantedNdpUser {
    private PlantedNdpUser() {
    }

    static long retransmissions(final NdpSender sender) {
        return sender.retransmissions(0);
    }
}
