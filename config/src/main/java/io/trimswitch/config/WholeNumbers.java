package io.trimswitch.config;

/**
 * Whole numbers as a user writes them, on a command line, in ctl's words or in a file: an optional sign and the ASCII
 * digits 0-9, nothing else. {@link Integer#parseInt} alone takes any script's digits ('١' is 1, '５' is 5), so that a
 * value pasted from elsewhere would be read as a number the user never typed. The same contract as the JDK's
 * parsers otherwise: a {@link NumberFormatException} for what is not such a number or does not fit.
 */
public final class WholeNumbers {
    private WholeNumbers() {
    }

    public static int parseInt(final String text) {
        return Integer.parseInt(ascii(text));
    }

    public static long parseLong(final String text) {
        return Long.parseLong(ascii(text));
    }

    /** Whether {@code text} is a sign (optional) and one or more ASCII digits. */
    public static boolean isWholeNumber(final String text) {
        if (text == null || text.isEmpty()) {
            return false;
        }
        final int start = text.charAt(0) == '-' || text.charAt(0) == '+' ? 1 : 0;
        if (start == text.length()) {
            return false;
        }
        for (int i = start; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    private static String ascii(final String text) {
        if (!isWholeNumber(text)) {
            throw new NumberFormatException("not a whole number in the digits 0-9: '" + OneLine.of(OneLine.cut(String.valueOf(text))) + "'");
        }
        return text;
    }
}
