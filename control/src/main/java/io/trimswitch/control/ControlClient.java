package io.trimswitch.control;

import io.trimswitch.config.ConfigException;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Sends one command to a running switch's control socket and reads its reply. */
public final class ControlClient {
    /** The longest reply read: a show of many ports with their settings. */
    private static final int MAX_REPLY_BYTES = 16 * 1024 * 1024;
    /** How long ctl waits for a switch's reply: a reload of the largest settings file takes far less. */
    static final long REPLY_WITHIN_MS = 30_000;

    private ControlClient() {
    }

    /**
     * @throws ConfigException in one line when no switch serves {@code socket}, the caller may not use it, or the answer is not a reply
     */
    public static ControlProtocol.Reply send(final Path socket, final List<String> words) {
        if (!Files.exists(socket)) {
            throw new ConfigException("no control socket at " + socket + ": is 'trimswitch run' running in this network namespace"
                + " (or with this --counters file)?");
        }
        // Made (and the JSON classes loaded) before connecting: on a loaded host that takes longer than the switch waits
        // for a silent client. Reading the reply loads nothing new either.
        final ByteBuffer out = ByteBuffer.wrap((ControlProtocol.request(words) + "\n").getBytes(StandardCharsets.UTF_8));
        ControlProtocol.prepare();
        final long deadline = System.nanoTime() + REPLY_WITHIN_MS * 1_000_000;
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX); Selector selector = Selector.open()) {
            channel.connect(UnixDomainSocketAddress.of(socket));
            channel.configureBlocking(false);
            final SelectionKey key = channel.register(selector, SelectionKey.OP_WRITE);
            IOException unsent = null;
            try {
                while (out.hasRemaining()) {
                    channel.write(out);
                    if (out.hasRemaining()) {
                        await(selector, deadline, socket);
                    }
                }
            } catch (final IOException e) {
                // The switch refused before reading it all (too busy, too slow): its reason is there to read.
                unsent = e;
            }
            key.interestOps(SelectionKey.OP_READ);
            final ByteArrayOutputStream in = new ByteArrayOutputStream();
            final ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
            // One line: its end is the reply's, whatever the socket does next (a switch that refused closes without
            // reading the request, and the kernel then reports a reset after the reply).
            boolean ended = false;
            while (!ended) {
                final int read;
                try {
                    read = channel.read(chunk);
                } catch (final IOException e) {
                    if (in.size() == 0 && unsent == null) {
                        throw e;
                    }
                    break;
                }
                if (read < 0) {
                    break;
                }
                for (int i = 0; i < chunk.position() && !ended; i++) {
                    ended = chunk.get(i) == '\n';
                }
                in.write(chunk.array(), 0, chunk.position());
                chunk.clear();
                if (in.size() > MAX_REPLY_BYTES) {
                    throw new ConfigException("the control socket's answer is over " + MAX_REPLY_BYTES + " bytes");
                }
                if (read == 0) {
                    await(selector, deadline, socket);
                }
            }
            final String line = in.toString(StandardCharsets.UTF_8).strip();
            if (unsent != null && line.isEmpty()) {
                throw unsent;
            }
            return ControlProtocol.reply(line);
        } catch (final AccessDeniedException e) {
            throw denied(socket);
        } catch (final SocketException e) {
            if (String.valueOf(e.getMessage()).contains("Permission denied")) {
                throw denied(socket);
            }
            throw new ConfigException("control socket " + socket + ": " + e.getMessage() + " (a switch that died leaves it; the next one replaces it)");
        } catch (final IOException e) {
            throw new ConfigException("control socket " + socket + ": " + e.getMessage());
        }
    }

    /** Waits for the socket to be ready, or refuses in one line once the deadline has passed. */
    private static void await(final Selector selector, final long deadline, final Path socket) throws IOException {
        final long left = (deadline - System.nanoTime()) / 1_000_000;
        if (left <= 0 || selector.select(left) == 0 && System.nanoTime() - deadline >= 0) {
            throw new ConfigException("control socket " + socket + ": no reply within " + REPLY_WITHIN_MS / 1000 + " s (is the switch stuck?)");
        }
        selector.selectedKeys().clear();
    }

    private static ConfigException denied(final Path socket) {
        return new ConfigException("control socket " + socket + ": permission denied (root, or the switch's metrics.controlGroup, may use it)");
    }
}
