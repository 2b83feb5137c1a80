package io.trimswitch.dataplane.counters;

/**
 * Which counter an entry of a {@link CounterRegistry} is: its metric, its port, an index within the metric (a trim
 * kind, a reason's ordinal, a queue; 0 where none applies) and a short name (the reason or kind as users see it; empty
 * where none applies). Several entries may share a name when several threads count the same thing for a port: readers
 * add them up.
 */
public record CounterName(CounterType type, int port, int index, String name) {
    /** The longest name the key holds beside the port and index. */
    public static final int MAX_NAME_LENGTH = 64;

    public CounterName {
        if (name.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException("a counter's name is at most " + MAX_NAME_LENGTH + " characters, got '" + name + "'");
        }
    }

    /** The port's one counter of {@code type}. */
    public static CounterName of(final CounterType type, final int port) {
        return new CounterName(type, port, 0, "");
    }

    /** A readable label: metric, port and, where it applies, its name, then who writes it. */
    String label(final String writer) {
        return type.key() + " port " + port + (name.isEmpty() ? "" : " " + name) + " (" + writer + ")";
    }
}
