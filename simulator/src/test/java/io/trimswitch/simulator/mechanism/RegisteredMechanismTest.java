package io.trimswitch.simulator.mechanism;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;
import io.trimswitch.config.SettingsFiles;
import io.trimswitch.simulator.VirtualTimeSwitch;
import io.trimswitch.switching.mechanism.Mechanisms;
import io.trimswitch.switching.report.ReportBuilder;
import io.trimswitch.switching.report.RunReport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A mechanism added by one class and one registration runs a scenario named in a settings file. */
class RegisteredMechanismTest {
    @BeforeAll
    static void register() {
        Mechanisms.register(new FourPortDeflection());
    }

    @Test
    void aSettingsFileNamesTheRegisteredMechanismAndTheSwitchHasOneRecirculationPortPerFourPorts() {
        final Settings settings = SettingsFiles.parse("mechanism: dod-per-4\nworkload:\n  pattern: incast:16->1\n  packets: 200\n", "test.yaml");
        assertEquals(16, settings.recirculationPorts());
        final RunReport report = ReportBuilder.build(new VirtualTimeSwitch(settings.withOpenLoop().validate()).run());
        assertEquals("dod-per-4", report.mechanism());
        assertEquals(16, report.pipelines().size());
        // The senders are on ports 0 to 15: what they deflect goes to the first four recirculation ports, one per four ports.
        for (int port = 0; port < 4; port++) {
            assertTrue(report.pipelines().get(port).dodDeflections() > 0, "deflections: " + report.pipelines().get(port));
        }
        assertEquals(0, report.pipelines().stream().skip(4).mapToLong(RunReport.PipelineReport::dodDeflections).sum());
        assertEquals(report.totals().sent(), report.totals().deliveredWhole() + report.totals().deliveredHeader() + report.totals().dropped());
    }

    @Test
    void itsOwnRefusalOfTheRealClockIsTheOneLineAUserSees() {
        final Settings real = SettingsFiles.parse("mechanism: dod-per-4\nclock: real\ntransport:\n  kind: open-loop\n", "test.yaml");
        assertEquals("mechanism dod-per-4 runs only with clock virtual", assertThrows(ConfigException.class, real::validate).getMessage());
    }
}
