package io.trimswitch.control;

/**
 * A command's answer: {@code text} for a person (a table, or one line), {@code data} the same for a program (maps, lists,
 * strings and numbers, written as JSON).
 */
public record ControlReply(String text, Object data) {
    public ControlReply {
        if (text == null) {
            throw new IllegalArgumentException("a reply needs its text");
        }
    }

    /** A reply that is one line for both. */
    public static ControlReply line(final String text) {
        return new ControlReply(text, java.util.Map.of("message", text));
    }
}
