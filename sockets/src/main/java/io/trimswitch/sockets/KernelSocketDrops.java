package io.trimswitch.sockets;

import org.agrona.collections.Long2LongHashMap;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Datagrams the kernel dropped before a socket read them, because its receive buffer was full: a host
 * sent faster than the switch could take. Linux counts them per socket in the last column of
 * /proc/net/udp and udp6, seen from this process's network namespace. Read ten times a second by the gauges'
 * thread, so a reading allocates nothing: the tables stay open and are read again from their start into one buffer.
 */
public final class KernelSocketDrops implements AutoCloseable {
    private static final List<Path> TABLES = List.of(Path.of("/proc/self/net/udp"), Path.of("/proc/self/net/udp6"));

    private static final long NONE = -1;

    private final FileChannel[] tables;
    private final Long2LongHashMap drops = new Long2LongHashMap(NONE);
    private ByteBuffer text = ByteBuffer.allocateDirect(64 * 1024);

    private KernelSocketDrops(final List<FileChannel> tables) {
        this.tables = tables.toArray(FileChannel[]::new);
    }

    /** The tables of this network namespace that can be read (none where /proc cannot be). */
    public static KernelSocketDrops open() {
        final List<FileChannel> tables = new ArrayList<>();
        for (final Path table : TABLES) {
            try {
                tables.add(FileChannel.open(table, StandardOpenOption.READ));
            } catch (final IOException | SecurityException | UnsupportedOperationException e) {
                // Without it, its sockets' drops read 0.
            }
        }
        return new KernelSocketDrops(tables);
    }

    /** Reads every socket's drops afresh. */
    public void refresh() {
        drops.clear();
        for (final FileChannel table : tables) {
            try {
                parse(readWhole(table));
            } catch (final IOException e) {
                // Its sockets keep 0 until a read succeeds.
            }
        }
    }

    /** Drops so far of the UDP socket bound to {@code localPort} (added up over IPv4 and IPv6), as of the last {@link #refresh()}. */
    public long drops(final int localPort) {
        return Math.max(0, drops.get(localPort));
    }

    private int readWhole(final FileChannel table) throws IOException {
        while (true) {
            text.clear();
            // From the start each time: a proc table read at offset 0 is generated anew.
            long at = 0;
            int read;
            while (text.hasRemaining() && (read = table.read(text, at)) > 0) {
                at += read;
            }
            if (text.hasRemaining()) {
                return text.position();
            }
            // More sockets than room: a larger buffer once, kept from then on.
            text = ByteBuffer.allocateDirect(text.capacity() * 2);
        }
    }

    /** Each line after the heading: "sl local_address(hex addr:hex port) ... drops"; the port's drops added to what it has. */
    private void parse(final int length) {
        int line = 0;
        while (line < length && text.get(line) != '\n') {
            line++;
        }
        line++;
        while (line < length) {
            int end = line;
            while (end < length && text.get(end) != '\n') {
                end++;
            }
            countLine(line, end);
            line = end + 1;
        }
    }

    private void countLine(final int start, final int end) {
        int field = 0;
        int at = start;
        int port = -1;
        long last = -1;
        while (at < end) {
            while (at < end && text.get(at) == ' ') {
                at++;
            }
            if (at == end) {
                break;
            }
            final int fieldStart = at;
            int colon = -1;
            long decimal = 0;
            boolean digits = true;
            while (at < end && text.get(at) != ' ') {
                final byte c = text.get(at);
                if (c == ':') {
                    colon = at;
                }
                digits &= c >= '0' && c <= '9';
                decimal = decimal * 10 + (c - '0');
                at++;
            }
            if (field == 1 && colon > fieldStart) {
                port = hex(colon + 1, at);
            }
            last = digits ? decimal : -1;
            field++;
        }
        if (port >= 0 && last >= 0) {
            drops.put(port, Math.max(0, drops.get(port)) + last);
        }
    }

    private int hex(final int start, final int end) {
        int value = 0;
        for (int at = start; at < end; at++) {
            final int digit = Character.digit(text.get(at), 16);
            if (digit < 0) {
                return -1;
            }
            value = value << 4 | digit;
        }
        return value;
    }

    @Override
    public void close() {
        for (final FileChannel table : tables) {
            try {
                table.close();
            } catch (final IOException ignored) {
                // Nothing left to read it for.
            }
        }
    }
}
