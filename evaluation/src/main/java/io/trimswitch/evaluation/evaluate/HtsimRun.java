package io.trimswitch.evaluation.evaluate;

import io.trimswitch.network.HtsimExperiment;
import io.trimswitch.network.NetworkRun;
import io.trimswitch.simulator.Transport;
import io.trimswitch.simulator.Transports;

import java.util.Map;

/**
 * An htsim experiment (a fat tree, its flows, its switches) run with NDP hosts ({@code transport} null) or the hosts of
 * the plug-in transport named {@code transport}, with the settings of its {@code block}.
 */
public record HtsimRun(HtsimExperiment experiment, String transport, Map<String, Object> block) {
    /** The run's network, built. */
    NetworkRun network() {
        if (transport == null) {
            return NetworkRun.of(experiment);
        }
        final Transport plugIn = Transports.named(transport);
        return NetworkRun.of(experiment, plugIn, plugIn.settings(block));
    }
}
