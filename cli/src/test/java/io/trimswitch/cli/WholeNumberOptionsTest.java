package io.trimswitch.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A number on the command line or in a settings file is written in the digits 0-9: another script's digits are refused in one line. */
class WholeNumberOptionsTest {
    /** ARABIC-INDIC DIGIT ONE and TWO, and FULLWIDTH DIGIT FIVE: digits to the JDK's parsers, not to this tool. */
    private static final String ARABIC_12 = "\u0661\u0662";
    private static final String FULLWIDTH_5 = "\uff15";

    @TempDir
    Path dir;

    @Test
    void anOptionThatTakesAWholeNumberRefusesOtherDigits() {
        assertRefused(Cli.trimswitch("scenario", "--packets", ARABIC_12), "trimswitch: Invalid value for option '--packets': '" + ARABIC_12
            + "' is not a whole number (digits 0-9)");
        assertRefused(Cli.trimswitch("scenario", "--packets", FULLWIDTH_5), "trimswitch: Invalid value for option '--packets'");
    }

    @Test
    void anInterfacePortNumberRefusesOtherDigits() {
        assertRefused(Cli.trimswitch("run", "-i", "\u0661@veth0"), "trimswitch: -i \u0661@veth0: '\u0661' is not a port number");
    }

    @Test
    void aSettingsFileNumberRefusesOtherDigits() throws Exception {
        final Path config = dir.resolve("s.yaml");
        Files.writeString(config, "trim:\n  dscp: " + ARABIC_12 + "\n");
        assertRefused(Cli.trimswitch("scenario", "--config", config.toString()), "trimswitch: " + config + ": bad value for 'trim.dscp' (line 2)");
    }

    private static void assertRefused(final Cli.Result result, final String start) {
        assertEquals(2, result.exit(), result.out() + result.err());
        assertEquals(1, result.err().lines().count(), result.err());
        assertTrue(result.err().startsWith(start), "expected '" + start + "' in " + result.err());
    }
}
