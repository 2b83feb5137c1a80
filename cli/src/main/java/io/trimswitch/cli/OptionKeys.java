package io.trimswitch.cli;

import io.trimswitch.config.ConfigException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which settings key each option writes. The checks name keys, as a settings file has them; a value refused that the
 * user typed as an option is named by that option first, with the key after it: {@code --packets must be 1..1000000,
 * got -5 (workload.packets)}.
 */
final class OptionKeys {
    /** {@code scenario}'s options and the switch settings' keys. */
    static final OptionKeys SCENARIO = new OptionKeys()
        .put("--pattern", "workload.pattern").put("--packets", "workload.packets").put("--packet-bytes", "workload.packetBytes")
        .put("--duration-us", "workload.durationUs").put("--seed", "workload.seed")
        .put("--transport", "transport.kind").put("--initial-window", "transport.initialWindowPackets").put("--hosts", "transport.hosts")
        .put("--flow-sizes", "transport.flowSizes").put("--background", "transport.backgroundLoad").put("--background-us", "transport.backgroundUs")
        .put("--meters", "control.meters").put("--notify", "control.notify").put("--signal", "control.signal").put("--t0-us", "control.t0Us")
        .put("--t1-us", "control.t1Us").put("--signal-backlog", "control.signalBacklog").put("--pessimistic-rate", "control.pessimisticRateGbps")
        .put("--halftimistic-rate", "control.halftimisticRateGbps").put("--data-queue", "fabric.dataQueuePackets")
        .put("--header-queue", "fabric.headerQueuePackets").put("--dod-queue", "recirculation.dodQueuePackets")
        .put("--dilation", "realtime.dilation").put("--placement", "realtime.placement").put("--idle", "realtime.idle");

    /** {@code fabric}'s leaf-spine options and the network settings' keys. */
    static final OptionKeys FABRIC = new OptionKeys()
        .put("--leaves", "topology.leaves").put("--spines", "topology.spines").put("--hosts-per-leaf", "topology.hostsPerLeaf")
        .put("--host-rate", "topology.hostRateGbps").put("--uplink-rate", "topology.uplinkRateGbps").put("--latency-ns", "topology.linkLatencyNs")
        .put("--routing", "routing").put("--workload", "workload.kind").put("--packets", "workload.packets").put("--racks", "workload.racks")
        .put("--senders-per-rack", "workload.sendersPerRack").put("--load", "workload.load").put("--flow-sizes", "workload.flowSizes")
        .put("--duration-us", "workload.durationUs").put("--initial-window", "transport.initialWindowPackets");

    private final Map<String, String> options = new LinkedHashMap<>();

    /** {@code option} writes {@code key}. */
    OptionKeys put(final String option, final String key) {
        options.put(key, option);
        return this;
    }

    /**
     * {@code refused} again with the option in front, where its message begins with a key an option given to
     * {@code command} wrote; else {@code refused} itself.
     */
    ConfigException named(final ConfigException refused, final CommandSpec command) {
        final String message = refused.getMessage();
        final String key = options.keySet().stream().filter(k -> startsWithKey(message, k)).max(Comparator.comparingInt(String::length)).orElse(null);
        if (key == null) {
            return refused;
        }
        final OptionSpec option = command.findOption(options.get(key));
        if (option == null || option.getValue() == null || Boolean.FALSE.equals(option.getValue())) {
            return refused;
        }
        return new ConfigException(option.longestName() + message.substring(key.length()) + " (" + key + ")", refused);
    }

    private static boolean startsWithKey(final String message, final String key) {
        return message.startsWith(key) && message.length() > key.length() && " (:".indexOf(message.charAt(key.length())) >= 0;
    }
}
