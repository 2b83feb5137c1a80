package io.trimswitch.realtime.sockets;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Datagrams the kernel dropped before a socket read them, because its receive buffer was full: a host
 * sent faster than the switch could take. Linux counts them per socket in the last column of
 * /proc/net/udp and udp6, seen from this process's network namespace.
 */
public final class KernelSocketDrops {
    private static final List<Path> TABLES = List.of(Path.of("/proc/self/net/udp"), Path.of("/proc/self/net/udp6"));

    private KernelSocketDrops() {
    }

    /** Drops so far by local UDP port, for every UDP socket of this namespace; empty where the tables cannot be read. */
    public static Map<Integer, Long> byLocalPort() {
        final Map<Integer, Long> drops = new HashMap<>();
        for (final Path table : TABLES) {
            final List<String> lines;
            try {
                lines = Files.readAllLines(table);
            } catch (final IOException | SecurityException e) {
                continue;
            }
            for (final String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                final String[] fields = line.trim().split("\\s+");
                final int colon = fields.length > 1 ? fields[1].lastIndexOf(':') : -1;
                if (colon < 0) {
                    continue;
                }
                try {
                    final int port = Integer.parseInt(fields[1].substring(colon + 1), 16);
                    drops.merge(port, Long.parseLong(fields[fields.length - 1]), Long::sum);
                } catch (final NumberFormatException e) {
                    // A line of another shape: nothing to count.
                }
            }
        }
        return drops;
    }
}
