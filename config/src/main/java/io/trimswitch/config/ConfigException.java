package io.trimswitch.config;

/**
 * A setting, file or argument the switch cannot run with; its message is one line naming the problem. A value quoted in
 * it may carry a line break or another control character (a YAML string may): it is shown escaped, so the message stays
 * one line whatever the user wrote.
 */
public final class ConfigException extends RuntimeException {
    public ConfigException(final String message) {
        super(oneLine(message));
    }

    public ConfigException(final String message, final Throwable cause) {
        super(oneLine(message), cause);
    }

    private static String oneLine(final String message) {
        if (message == null || message.chars().noneMatch(ConfigException::breaksTheLine)) {
            return message;
        }
        final StringBuilder line = new StringBuilder(message.length() + 16);
        for (int i = 0; i < message.length(); i++) {
            final char c = message.charAt(i);
            if (c == '\n') {
                line.append("\\n");
            } else if (c == '\r') {
                line.append("\\r");
            } else if (c == '\t') {
                line.append("\\t");
            } else if (breaksTheLine(c)) {
                line.append(String.format("\\u%04x", (int) c));
            } else {
                line.append(c);
            }
        }
        return line.toString();
    }

    private static boolean breaksTheLine(final int c) {
        return Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
    }
}
