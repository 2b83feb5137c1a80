package io.trimswitch.sonic;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

/** Any bytes as a SONiC config_db.json: taken as valid settings or refused with a {@link ConfigException} of one line. */
class ConfigDbFuzzTest {
    @FuzzTest
    void anyConfigDbIsValidSettingsOrRefusedInOneLine(final byte[] file) {
        final String json = new String(file, StandardCharsets.UTF_8);
        try {
            assertNotNull(ConfigDb.apply(json, "fuzzed_config_db.json", Settings.DEFAULTS).validate());
        } catch (final ConfigException e) {
            assertOneLine(e, json);
        } catch (final RuntimeException e) {
            fail("not one clear line but " + e + " for:\n" + json, e);
        }
    }

    private static void assertOneLine(final ConfigException e, final String input) {
        assertNotNull(e.getMessage(), "a refusal without a message for:\n" + input);
        assertEquals(1, e.getMessage().strip().lines().count(), "one line: " + e.getMessage());
        assertEquals(e.getMessage().strip(), e.getMessage(), "no stray blanks: '" + e.getMessage() + "'");
    }
}
