package io.trimswitch.evaluation.evaluate;

import io.trimswitch.network.htsim.HtsimExperiment;
import io.trimswitch.network.run.NetworkRun;
import io.trimswitch.simulator.Transport;
import io.trimswitch.simulator.Transports;

import java.util.Map;

/**
 * An htsim experiment (a fat tree, its flows, its switches) run with the hosts of the transport named {@code transport}
 * ("ndp", "uet"), with the settings of its {@code block}.
 */
public record HtsimRun(HtsimExperiment experiment, String transport, Map<String, Object> block) {
    /** The run's network, built. */
    NetworkRun network() {
        final Transport hosts = Transports.named(transport);
        return NetworkRun.of(experiment, hosts, hosts.settings(block));
    }
}
