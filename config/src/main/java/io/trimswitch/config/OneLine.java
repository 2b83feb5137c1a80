package io.trimswitch.config;

import io.trimswitch.dataplane.io.InputFiles;

/**
 * A message a user reads on one line: a line break or another control character that a value quoted in it carries (a
 * YAML string, a shell argument from a script with CRLF line ends) is shown escaped, never acted on by the terminal.
 */
public final class OneLine {
    private OneLine() {
    }

    public static String of(final String message) {
        if (message == null || message.chars().noneMatch(OneLine::breaksTheLine)) {
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

    /** {@code token} as a message quotes it, cut as every quoted token is ({@link InputFiles#cut}). */
    public static String cut(final String token) {
        return token == null ? null : InputFiles.cut(token);
    }

    private static boolean breaksTheLine(final int c) {
        return Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
    }
}
