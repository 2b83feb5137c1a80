package io.trimswitch.config;

import com.code_intelligence.jazzer.junit.FuzzTest;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Any bytes as a settings file (YAML): each is taken as valid settings or refused with a
 * {@link ConfigException} of one line; no other exception, and nothing that takes a run's settings apart later.
 */
class SettingsFilesFuzzTest {
    @FuzzTest
    void anySettingsFileIsValidSettingsOrRefusedInOneLine(final byte[] file) {
        final String yaml = new String(file, StandardCharsets.UTF_8);
        try {
            assertNotNull(SettingsFiles.parse(yaml, "fuzzed.yaml").validate());
        } catch (final ConfigException e) {
            assertOneLine(e, yaml);
        } catch (final RuntimeException e) {
            fail("not one clear line but " + e + " for:\n" + yaml, e);
        }
    }

    private static void assertOneLine(final ConfigException e, final String input) {
        assertNotNull(e.getMessage(), "a refusal without a message for:\n" + input);
        assertEquals(1, e.getMessage().strip().lines().count(), "one line: " + e.getMessage());
        assertEquals(e.getMessage().strip(), e.getMessage(), "no stray blanks: '" + e.getMessage() + "'");
    }
}
