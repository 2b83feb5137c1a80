package io.trimswitch.simulator;

import io.trimswitch.config.Settings;

import java.util.Map;

/**
 * A transport as a plug-in: its end hosts on the links of a lone switch or of a fabric, its settings block, what it
 * needs of the switches and its section of a run's report. The engine, the networks and the commands reach one only
 * through this contract and its name ({@link Transports}); its state machines and hosts stay in its own module.
 */
public interface Transport {
    /** The name runs choose it by ({@code --transport NAME}) and its report section's key. */
    String name();

    /**
     * Its settings from its block, a setting's name to its value (a string, a number, a flag or a list of numbers);
     * a setting left out takes its default. A bad value is a one-line {@link io.trimswitch.config.ConfigException}.
     */
    TransportSettings settings(Map<String, Object> block);

    /** Hosts on a lone switch's ports, with the flows of {@code settings}' pattern (and its background flows). */
    TransportRun loneSwitch(Settings settings, TransportSettings own);

    /** Hosts on a fabric's host links, with its flows. */
    TransportRun fabric(Fabric fabric, TransportSettings own);

    /** A switch's settings as this transport's hosts need them; its first {@code hostPorts} ports face hosts. */
    default Settings switchSettings(final Settings plain, final int hostPorts, final TransportSettings own) {
        return plain;
    }

    /** A fabric's data queues, packets, when none is given: null for the switches' own default. */
    default Integer defaultQueuePackets(final Fabric.Numbers numbers, final boolean wholePackets) {
        return null;
    }
}
