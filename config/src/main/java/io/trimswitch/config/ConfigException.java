package io.trimswitch.config;

/** A setting, file or argument the switch cannot run with; its message is one line naming the problem. */
public final class ConfigException extends RuntimeException {
    public ConfigException(final String message) {
        super(message);
    }

    public ConfigException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
