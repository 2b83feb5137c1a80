package io.trimswitch.config;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ConfigExceptionTest {
    @Test
    void aValueWithALineBreakIsShownEscapedSoTheRefusalStaysOneLine() {
        final ConfigException e = assertThrowsConfig("mechanism: \"mod\\nrest\\tand\\u0007\"\n");
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        assertEquals(true, e.getMessage().contains("'mod\\nrest\\tand\\u0007'"), e.getMessage());
    }

    private static ConfigException assertThrowsConfig(final String yaml) {
        try {
            SettingsFiles.parse(yaml, "settings.yaml").validate();
        } catch (final ConfigException e) {
            return e;
        }
        throw new AssertionError("accepted: " + yaml);
    }
}
