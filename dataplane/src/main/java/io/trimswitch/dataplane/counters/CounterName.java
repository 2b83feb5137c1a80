package io.trimswitch.dataplane.counters;

import org.agrona.MutableDirectBuffer;

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

    /**
     * Writes a readable label at the start of {@code label}: metric, port and, where it applies, its name, then who
     * writes it, as in "drops port 3 tooShort (sockets-0)"; cut to what a label holds. Returns its length.
     */
    int writeLabel(final MutableDirectBuffer label, final String writer) {
        int at = label.putStringWithoutLengthAscii(0, type.key());
        at += label.putStringWithoutLengthAscii(at, " port ");
        at += label.putIntAscii(at, port);
        if (!name.isEmpty()) {
            at += label.putStringWithoutLengthAscii(at, " ");
            at += label.putStringWithoutLengthAscii(at, name);
        }
        final int room = label.capacity() - at - 3;
        at += label.putStringWithoutLengthAscii(at, " (");
        at += label.putStringWithoutLengthAscii(at, writer, 0, Math.min(writer.length(), room));
        at += label.putStringWithoutLengthAscii(at, ")");
        return at;
    }
}
