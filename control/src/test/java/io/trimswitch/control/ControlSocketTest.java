package io.trimswitch.control;

import io.trimswitch.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ControlSocketTest {
    @TempDir
    Path dir;

    private static final ControlCommands ECHO = words -> switch (words.getFirst()) {
        case "echo" -> ControlReply.line(String.join(" ", words.subList(1, words.size())));
        case "refuse" -> throw new ConfigException("refused: " + words);
        case "break" -> throw new IllegalStateException("broken\nacross lines");
        case "oom" -> throw new OutOfMemoryError("Java heap space");
        case "whoami" -> ControlReply.line(ControlCaller.current().uid() + ":" + ControlCaller.current().gid());
        default -> throw new ConfigException("unknown command '" + words.getFirst() + "'");
    };

    @Test
    void aCommandIsAnsweredWithItsTextAndData() {
        try (ControlSocket socket = ControlSocket.open(dir.resolve("s.ctl"), null, ECHO)) {
            final ControlProtocol.Reply reply = ControlClient.send(socket.path(), List.of("echo", "a", "b"));
            assertTrue(reply.ok());
            assertEquals("a b", reply.text());
            assertEquals("a b", reply.data().get("message").asText());
            assertFalse(socket.replacedStale());
        }
    }

    @Test
    void onlyTheOwnerMayConnectUnlessAGroupIsNamed() throws Exception {
        try (ControlSocket socket = ControlSocket.open(dir.resolve("owner.ctl"), null, ECHO)) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket.path())));
        }
        final String group = Files.readAttributes(dir, PosixFileAttributes.class).group().getName();
        try (ControlSocket socket = ControlSocket.open(dir.resolve("group.ctl"), group, ECHO)) {
            final PosixFileAttributes attributes = Files.readAttributes(socket.path(), PosixFileAttributes.class);
            assertEquals("rw-rw----", PosixFilePermissions.toString(attributes.permissions()));
            assertEquals(group, attributes.group().getName());
        }
        final ConfigException unknown = assertThrows(ConfigException.class,
            () -> ControlSocket.open(dir.resolve("nogroup.ctl"), "no-such-group-here", ECHO));
        assertEquals("metrics.controlGroup: no group named 'no-such-group-here'", unknown.getMessage());
        assertFalse(Files.exists(dir.resolve("nogroup.ctl")));
    }

    @Test
    void aSecondSwitchIsRefusedWhileTheFirstLivesAndNamesItsProcess() {
        final Path path = dir.resolve("taken.ctl");
        try (ControlSocket first = ControlSocket.open(path, null, ECHO)) {
            final ConfigException refused = assertThrows(ConfigException.class, () -> ControlSocket.open(path, null, ECHO));
            assertTrue(refused.getMessage().startsWith("control socket " + path + " belongs to a running switch (process "
                + ProcessHandle.current().pid() + ")"), refused.getMessage());
            assertTrue(ControlClient.send(path, List.of("echo", "still")).ok());
        }
    }

    @Test
    void aSocketLeftByADeadSwitchIsReplaced() throws Exception {
        final Path path = dir.resolve("stale.ctl");
        try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            dead.bind(UnixDomainSocketAddress.of(path));
        }
        assertTrue(Files.exists(path), "a closed Unix socket leaves its file, as a killed switch does");
        final ConfigException nobody = assertThrows(ConfigException.class, () -> ControlClient.send(path, List.of("echo")));
        assertTrue(nobody.getMessage().contains("the next one replaces it"), nobody.getMessage());
        try (ControlSocket socket = ControlSocket.open(path, null, ECHO)) {
            assertTrue(socket.replacedStale());
            assertEquals("x", ControlClient.send(path, List.of("echo", "x")).text());
        }
        assertFalse(Files.exists(path));
        assertFalse(Files.exists(dir.resolve("stale.ctl.lock")));
        try (var left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "nothing is left behind");
        }
    }

    @Test
    void refusedBrokenAndMalformedRequestsGetOneLineAndTheSocketGoesOn() throws Exception {
        try (ControlSocket socket = ControlSocket.open(dir.resolve("hostile.ctl"), null, ECHO)) {
            assertEquals("refused: [refuse, x]", ControlClient.send(socket.path(), List.of("refuse", "x")).error());
            final String broken = ControlClient.send(socket.path(), List.of("break")).error();
            assertTrue(broken.startsWith("break: failed: ") && !broken.contains("\n"), broken);
            assertEquals("unknown command 'nope'", ControlClient.send(socket.path(), List.of("nope")).error());
            for (final String raw : List.of("not json", "{}", "[]", "[1,2]", "null", "[\"" + "w".repeat(5000) + "\"]")) {
                final ControlProtocol.Reply reply = ControlProtocol.reply(exchange(socket.path(), raw + "\n"));
                assertFalse(reply.ok(), raw);
                assertFalse(reply.error().contains("\n"), raw);
            }
            try {
                // The switch answers after its limit and closes: the client may see the answer or a reset.
                final String huge = exchange(socket.path(), "[\"" + "x".repeat(4 * ControlSocket.MAX_REQUEST_BYTES) + "\"]\n");
                assertFalse(ControlProtocol.reply(huge).ok());
            } catch (final java.io.IOException reset) {
                assertTrue(String.valueOf(reset.getMessage()).contains("reset"), reset.toString());
            }
            assertEquals("ok", ControlClient.send(socket.path(), List.of("echo", "ok")).text());
        }
    }

    @Test
    void aClientThatSendsNothingHoldsTheSocketForTwoSecondsAtMost() throws Exception {
        try (ControlSocket socket = ControlSocket.open(dir.resolve("silent.ctl"), null, ECHO);
             SocketChannel silent = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            silent.connect(UnixDomainSocketAddress.of(socket.path()));
            final long start = System.nanoTime();
            assertEquals("after", ControlClient.send(socket.path(), List.of("echo", "after")).text());
            final double waited = (System.nanoTime() - start) / 1e9;
            assertTrue(waited < 10, "the silent client held the socket " + waited + " s");
        }
    }

    @Test
    void twentyClientsEachHoldingHalfALineDoNotDelayAnother() throws Exception {
        try (ControlSocket socket = ControlSocket.open(dir.resolve("busy.ctl"), null, ECHO)) {
            final List<SocketChannel> idle = new java.util.ArrayList<>();
            try {
                for (int i = 0; i < 20; i++) {
                    final SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket.path()));
                    channel.write(ByteBuffer.wrap("[\"ech".getBytes(StandardCharsets.UTF_8)));
                    idle.add(channel);
                }
                final long start = System.nanoTime();
                assertEquals("now", ControlClient.send(socket.path(), List.of("echo", "now")).text());
                final double waited = (System.nanoTime() - start) / 1e9;
                // Served one after another, twenty clients of two seconds each would hold it 40 s.
                assertTrue(waited < ControlSocket.REQUEST_DEADLINE_MS / 1e3, "waited " + waited + " s behind idle clients");
            } finally {
                for (final SocketChannel channel : idle) {
                    channel.close();
                }
            }
        }
    }

    @Test
    void aClientThatSendsSlowlyButSteadilyIsServedPastTheIdleDeadline() throws Exception {
        try (ControlSocket socket = ControlSocket.open(dir.resolve("trickle.ctl"), null, ECHO);
             SocketChannel slow = SocketChannel.open(UnixDomainSocketAddress.of(socket.path()))) {
            final byte[] request = "[\"echo\",\"slowly\"]\n".getBytes(StandardCharsets.UTF_8);
            final long start = System.nanoTime();
            // One byte every fifth of the idle deadline: the whole request takes several deadlines.
            for (final byte b : request) {
                slow.write(ByteBuffer.wrap(new byte[] {b}));
                Thread.sleep(ControlSocket.REQUEST_DEADLINE_MS / 5);
            }
            assertTrue((System.nanoTime() - start) / 1e6 > 2 * ControlSocket.REQUEST_DEADLINE_MS, "the request took longer than two deadlines");
            final ControlProtocol.Reply reply = ControlProtocol.reply(readAll(slow));
            assertTrue(reply.ok(), reply.error());
            assertEquals("slowly", reply.text());
        }
    }

    @Test
    void aClientSilentPastTheIdleDeadlineIsCutWithTheSwitchsReason() throws Exception {
        try (ControlSocket socket = ControlSocket.open(dir.resolve("pause.ctl"), null, ECHO);
             SocketChannel paused = SocketChannel.open(UnixDomainSocketAddress.of(socket.path()))) {
            paused.write(ByteBuffer.wrap("[\"echo\",".getBytes(StandardCharsets.UTF_8)));
            final long start = System.nanoTime();
            final ControlProtocol.Reply reply = ControlProtocol.reply(readAll(paused));
            final double waited = (System.nanoTime() - start) / 1e9;
            assertFalse(reply.ok());
            assertEquals("the request was not one line of at most " + ControlSocket.MAX_REQUEST_BYTES + " bytes, with no pause over "
                + ControlSocket.REQUEST_DEADLINE_MS + " ms and within " + ControlSocket.REQUEST_WITHIN_MS / 1000 + " s", reply.error());
            assertTrue(waited >= ControlSocket.REQUEST_DEADLINE_MS / 1e3 * 0.9 && waited < 10, "cut after " + waited + " s");
        }
    }

    @Test
    void aSwitchThatRefusesBeforeReadingTheRequestIsQuotedNotABrokenPipe() throws Exception {
        final Path path = dir.resolve("refusing.ctl");
        try (ServerSocketChannel busy = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            busy.bind(UnixDomainSocketAddress.of(path));
            final Thread refuser = Thread.ofPlatform().start(() -> {
                try (SocketChannel client = busy.accept()) {
                    client.write(ByteBuffer.wrap((ControlProtocol.error("too busy; try again") + "\n").getBytes(StandardCharsets.UTF_8)));
                } catch (final java.io.IOException ignored) {
                    // The test's own server.
                }
            });
            // A request larger than the socket's buffer: the client is still writing when the switch has closed.
            final List<String> words = new java.util.ArrayList<>(List.of("echo"));
            while (words.size() < ControlProtocol.MAX_WORDS) {
                words.add("w".repeat(ControlProtocol.MAX_WORD_CHARS));
            }
            final ControlProtocol.Reply reply = ControlClient.send(path, words);
            assertEquals("too busy; try again", reply.error());
            refuser.join();
        }
    }

    @Test
    @org.junit.jupiter.api.Tag("host-timing")
    void twentyConcurrentClientsOnABusyHostAreAllServed() throws Exception {
        final ControlCommands slowShow = words -> {
            // A show's work, for the commands' one-at-a-time queue to be felt.
            final long until = System.nanoTime() + 20_000_000;
            long spins = 0;
            while (System.nanoTime() < until) {
                spins++;
            }
            return ControlReply.line(words.getFirst() + " " + (spins >= 0));
        };
        final java.util.concurrent.atomic.AtomicBoolean loaded = new java.util.concurrent.atomic.AtomicBoolean(true);
        final List<Thread> load = new java.util.ArrayList<>();
        try (ControlSocket socket = ControlSocket.open(dir.resolve("load.ctl"), null, slowShow);
             var clients = java.util.concurrent.Executors.newThreadPerTaskExecutor(Thread.ofPlatform().factory())) {
            // A load of about ten runnable threads on this host's cores, as other builds make it.
            for (int i = 0; i < 10; i++) {
                load.add(Thread.ofPlatform().daemon().start(() -> {
                    while (loaded.get()) {
                        Thread.onSpinWait();
                    }
                }));
            }
            final java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            final List<java.util.concurrent.Future<String>> replies = new java.util.ArrayList<>();
            for (int i = 0; i < 20; i++) {
                replies.add(clients.submit(() -> {
                    go.await();
                    final ControlProtocol.Reply reply = ControlClient.send(socket.path(), List.of("show"));
                    return reply.ok() ? reply.text() : reply.error();
                }));
            }
            go.countDown();
            for (final java.util.concurrent.Future<String> reply : replies) {
                assertEquals("show true", reply.get(ControlClient.REPLY_WITHIN_MS * 2, java.util.concurrent.TimeUnit.MILLISECONDS));
            }
        } finally {
            loaded.set(false);
            for (final Thread thread : load) {
                thread.join();
            }
        }
    }

    @Test
    void aCommandThatRunsOutOfMemoryIsAnsweredAndTheSocketGoesOn() {
        try (ControlSocket socket = ControlSocket.open(dir.resolve("oom.ctl"), null, ECHO)) {
            assertEquals("oom: failed: java.lang.OutOfMemoryError: Java heap space", ControlClient.send(socket.path(), List.of("oom")).error());
            assertEquals("alive", ControlClient.send(socket.path(), List.of("echo", "alive")).text());
        }
    }

    @Test
    void aCommandRunsWithItsCallersCredentials() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "needs root to act as another user");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
        try (ControlSocket socket = ControlSocket.open(dir.resolve("who.ctl"), "nogroup", ECHO)) {
            assertEquals("0:0", ControlClient.send(socket.path(), List.of("whoami")).text());
            // A member of the control group, not root: the command sees that user, as the kernel told the socket.
            final Process client = new ProcessBuilder("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "/usr/bin/python3", "-c",
                "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(b'[\"whoami\"]\\n');"
                    + " print(s.makefile().readline().strip())", socket.path().toString()).redirectErrorStream(true).start();
            final String reply = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertEquals(0, client.waitFor(), reply);
            final int nobody = io.trimswitch.interfaces.CallerFiles.userId("nobody");
            final int nogroup = io.trimswitch.interfaces.CallerFiles.groupId("nogroup");
            assertEquals(nobody + ":" + nogroup, ControlProtocol.reply(reply).text());
        }
    }

    @Test
    void aSocketThatClosesWithoutAReplyIsSaidSoInOneLine() throws Exception {
        final Path path = dir.resolve("mute.ctl");
        try (ServerSocketChannel mute = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            mute.bind(UnixDomainSocketAddress.of(path));
            final Thread closer = Thread.ofPlatform().start(() -> {
                try (SocketChannel client = mute.accept()) {
                    client.read(ByteBuffer.allocate(1024));
                } catch (final java.io.IOException ignored) {
                    // The test's own server.
                }
            });
            final ConfigException silent = assertThrows(ConfigException.class, () -> ControlClient.send(path, List.of("show")));
            assertEquals("the control socket closed without a reply (a switch that stopped, or a socket no switch serves)", silent.getMessage());
            closer.join();
        }
    }

    /** Everything the switch sends until it closes. */
    private static String readAll(final SocketChannel channel) throws java.io.IOException {
        final ByteBuffer in = ByteBuffer.allocate(1 << 16);
        while (channel.read(in) >= 0 && in.hasRemaining()) {
            // Until the switch closes.
        }
        return new String(in.array(), 0, in.position(), StandardCharsets.UTF_8).strip();
    }

    /** Writes raw bytes, as a hostile client would, and reads the answer whatever it is. */
    private static String exchange(final Path path, final String raw) throws Exception {
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(path));
            final ByteBuffer out = ByteBuffer.wrap(raw.getBytes(StandardCharsets.UTF_8));
            try {
                while (out.hasRemaining()) {
                    channel.write(out);
                }
            } catch (final java.io.IOException e) {
                // The switch stopped reading: its answer is still there to read.
            }
            final ByteBuffer in = ByteBuffer.allocate(1 << 20);
            while (channel.read(in) >= 0) {
                if (!in.hasRemaining()) {
                    break;
                }
            }
            return new String(in.array(), 0, in.position(), StandardCharsets.UTF_8).strip();
        }
    }
}
