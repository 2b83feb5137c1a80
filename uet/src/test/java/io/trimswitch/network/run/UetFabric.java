package io.trimswitch.network.run;

import io.trimswitch.network.htsim.HtsimExperiment;
import io.trimswitch.network.htsim.HtsimReport;
import io.trimswitch.uet.UetSettings;
import io.trimswitch.uet.UetReport;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trimswitch.simulator.Transports;

/** UET hosts on an htsim experiment's fat tree, reached as every run reaches them: by the transport's name. */
final class UetFabric {
    private static final ObjectMapper JSON = new ObjectMapper();

    private UetFabric() {
    }

    static NetworkRun network(final HtsimExperiment experiment, final UetSettings settings) {
        return NetworkRun.of(experiment, Transports.named("uet"), settings);
    }

    static HtsimReport run(final HtsimExperiment experiment, final UetSettings settings) {
        final NetworkRun run = network(experiment, settings);
        return NetworkReportBuilder.build(run, run.run(), experiment);
    }

    /** htsim_uec's data queue when none is given, one bandwidth-delay product: in whole packets, or in MTUs of payload. */
    static int queuePackets(final HtsimExperiment experiment, final boolean wholePackets) {
        return NetworkRun.defaultQueuePackets(experiment, Transports.named("uet"), wholePackets);
    }

    /** The report's "uet" section, as the hosts wrote it. */
    static UetReport uet(final HtsimReport report) {
        try {
            return JSON.treeToValue(report.section("uet"), UetReport.class);
        } catch (final JsonProcessingException e) {
            throw new AssertionError("the uet section does not read back: " + e.getMessage(), e);
        }
    }
}
