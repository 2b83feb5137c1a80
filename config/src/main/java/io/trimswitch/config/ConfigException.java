package io.trimswitch.config;

/**
 * A setting, file or argument the switch cannot run with; its message is one line naming the problem. A value quoted in
 * it may carry a line break or another control character (a YAML string may): it is shown escaped (see {@link OneLine}),
 * so the message stays one line whatever the user wrote.
 */
public final class ConfigException extends RuntimeException {
    public ConfigException(final String message) {
        super(OneLine.of(message));
    }

    public ConfigException(final String message, final Throwable cause) {
        super(OneLine.of(message), cause);
    }
}
