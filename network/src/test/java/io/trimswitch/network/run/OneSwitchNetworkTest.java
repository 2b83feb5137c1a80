package io.trimswitch.network.run;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.switching.report.ReportBuilder;
import io.trimswitch.switching.report.ReportJson;
import io.trimswitch.simulator.VirtualTimeSwitch;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The lone switch is the one-switch case of a network: the same run gives the same report, byte for byte. */
class OneSwitchNetworkTest {
    @ParameterizedTest(name = "{0} {1} hosts {2}")
    @CsvSource({
        "tofino, shift, separate",
        "tofino, incast:8->1, separate",
        "ideal, mod16:32, separate",
        "dod, incast:4->1, shared",
        "mod, shift, shared",
        "tofino2, mod16:20, separate",
    })
    void aOneSwitchNetworkReportsWhatTheLoneSwitchDoes(final String mechanism, final String pattern, final String hosts) {
        Settings spec = Settings.DEFAULTS;
        spec = spec.withMechanism(Mechanism.parse(mechanism));
        spec = spec.withWorkload(x -> x.withPattern(pattern).withPackets(100));
        spec = spec.withTransport(x -> x.withHosts(Settings.choice("transport.hosts", hosts, Settings.HostLayout.values())));
        final Settings settings = spec.validate();

        final String lone = ReportJson.toJson(ReportBuilder.build(new VirtualTimeSwitch(settings).run()));
        final NetworkRun network = NetworkRun.singleSwitch(settings);
        final String asNetwork = ReportJson.toJson(ReportBuilder.build(network.asSwitchRun(network.run())));

        assertEquals(lone, asNetwork);
        assertTrue(lone.contains("\"conservation\" : true"), "every packet accounted for");
    }
}
