package io.trimswitch.control;

import io.trimswitch.config.ConfigException;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
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
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(socket));
            final ByteBuffer out = ByteBuffer.wrap((ControlProtocol.request(words) + "\n").getBytes(StandardCharsets.UTF_8));
            while (out.hasRemaining()) {
                channel.write(out);
            }
            final ByteArrayOutputStream in = new ByteArrayOutputStream();
            final ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
            while (channel.read(chunk) >= 0) {
                in.write(chunk.array(), 0, chunk.position());
                chunk.clear();
                if (in.size() > MAX_REPLY_BYTES) {
                    throw new ConfigException("the control socket's answer is over " + MAX_REPLY_BYTES + " bytes");
                }
            }
            return ControlProtocol.reply(in.toString(StandardCharsets.UTF_8).strip());
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

    private static ConfigException denied(final Path socket) {
        return new ConfigException("control socket " + socket + ": permission denied (root, or the switch's control.group, may use it)");
    }
}
