package io.trimswitch.dataplane.counters;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** The key of a switch's counter in the registry: port, index within its metric, then its name (ASCII, length first). */
final class CounterKey {
    static final int PORT_OFFSET = 0;
    static final int INDEX_OFFSET = 4;
    static final int NAME_LENGTH_OFFSET = 8;
    static final int NAME_OFFSET = 12;
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private CounterKey() {
    }

    /** Writes {@code name}'s key at the start of {@code key}; returns its length. */
    static int write(final MutableDirectBuffer key, final CounterName name) {
        key.putInt(PORT_OFFSET, name.port(), ORDER);
        key.putInt(INDEX_OFFSET, name.index(), ORDER);
        final byte[] bytes = name.name().getBytes(StandardCharsets.US_ASCII);
        key.putInt(NAME_LENGTH_OFFSET, bytes.length, ORDER);
        key.putBytes(NAME_OFFSET, bytes);
        return NAME_OFFSET + bytes.length;
    }

    static int port(final DirectBuffer key) {
        return key.getInt(PORT_OFFSET, ORDER);
    }

    static int index(final DirectBuffer key) {
        return key.getInt(INDEX_OFFSET, ORDER);
    }

    static String name(final DirectBuffer key) {
        final int length = key.getInt(NAME_LENGTH_OFFSET, ORDER);
        if (length <= 0 || length > CounterName.MAX_NAME_LENGTH) {
            return "";
        }
        final byte[] bytes = new byte[length];
        key.getBytes(NAME_OFFSET, bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
