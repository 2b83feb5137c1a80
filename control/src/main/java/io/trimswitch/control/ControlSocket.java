package io.trimswitch.control;

import io.trimswitch.config.ConfigException;
import io.trimswitch.interfaces.CallerFiles;
import io.trimswitch.dataplane.io.OwnerLock;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalNotFoundException;

/**
 * A running switch's control socket, in the manner of {@code ovs-appctl}'s unixctl: a Unix socket that takes one request
 * per connection (a JSON array of words, one line) and answers one line ({@link ControlProtocol}).
 *
 * <p>Only root, or the group named in the settings, may connect: the socket is made in a private directory, given mode
 * 0600 (0660 with the group) and only then moved into place, so it is never reachable with looser rights. A lock file
 * beside it, held while the switch lives and released by the kernel on any death, tells a live owner from a stale
 * socket: a stale socket is replaced, a live one's is refused in one line that names its process.
 *
 * <p>Clients are served at once, up to {@link #MAX_CLIENTS}, each on a thread of its own with its own deadline, so a
 * client that sends garbage, too much or nothing holds one of them for at most {@link #REQUEST_DEADLINE_MS} with no byte
 * arriving (a slow one that keeps sending, as a client on a loaded host does, for {@link #REQUEST_WITHIN_MS}); the
 * commands themselves run one at a time, each as its caller ({@link ControlCaller}, from SO_PEERCRED). Nothing a client
 * or a command does ends the thread that accepts them.
 */
public final class ControlSocket implements AutoCloseable {
    /** The longest request taken: far more than any command's words. */
    static final int MAX_REQUEST_BYTES = 64 * 1024;
    /** How long a client may send nothing, before its request's first byte or between two of them. */
    static final long REQUEST_DEADLINE_MS = 2_000;
    /** How long a client sending a few bytes at a time may take for its whole request: ctl's own wait for a reply. */
    static final long REQUEST_WITHIN_MS = ControlClient.REPLY_WITHIN_MS;
    /** How long a client may take to read its reply. */
    static final long REPLY_DEADLINE_MS = 5_000;
    /** Clients served at once, each on a thread of its own: a silent one holds one of them for its deadline at most. */
    static final int MAX_CLIENTS = 64;

    private final Path path;
    private final OwnerLock lock;
    private final ServerSocketChannel server;
    private final ControlCommands commands;
    private final Thread thread;
    private final boolean replacedStale;
    private volatile boolean closed;
    private final java.util.concurrent.Semaphore serving = new java.util.concurrent.Semaphore(MAX_CLIENTS);

    private ControlSocket(final Path path, final OwnerLock lock, final ServerSocketChannel server, final ControlCommands commands,
        final boolean replacedStale) {
        this.path = path;
        this.lock = lock;
        this.server = server;
        this.commands = commands;
        this.replacedStale = replacedStale;
        this.thread = Thread.ofPlatform().name("trimswitch-control").daemon().unstarted(this::serve);
    }

    /**
     * Listens at {@code path} for {@code commands}; {@code group}, when not null, may connect too.
     *
     * @throws ConfigException in one line when another running switch serves that socket, or it cannot be made
     */
    public static ControlSocket open(final Path path, final String group, final ControlCommands commands) {
        final Path lockPath = path.resolveSibling(path.getFileName() + ".lock");
        OwnerLock lock = null;
        try {
            io.trimswitch.dataplane.io.PrivateFiles.directory(path.toAbsolutePath().getParent(),
                io.trimswitch.dataplane.io.PrivateFiles.PASS_THROUGH_DIRECTORY);
            lock = OwnerLock.take(lockPath, owner -> new ConfigException("control socket " + path + " belongs to a running switch (process "
                + owner + "); give this one its own counters file or --control PATH"));
            // The lock is ours, so whatever socket is there was left by a switch that died.
            final boolean stale = Files.deleteIfExists(path);
            final ServerSocketChannel server = bindPrivately(path, group);
            final ControlSocket socket = new ControlSocket(path, lock, server, commands, stale);
            socket.thread.start();
            return socket;
        } catch (final IOException e) {
            if (lock != null) {
                lock.close();
            }
            throw new ConfigException("control socket " + path + ": " + reason(e));
        } catch (final RuntimeException e) {
            if (lock != null) {
                lock.close();
            }
            if (e instanceof IllegalStateException unsafe) {
                throw new ConfigException("control socket " + path + ": " + unsafe.getMessage());
            }
            throw e;
        }
    }

    /** Binds in a fresh directory only the owner can enter, sets the socket's rights, then moves it into place. */
    private static ServerSocketChannel bindPrivately(final Path path, final String group) throws IOException {
        final Path parent = path.toAbsolutePath().getParent();
        final Path privateDir = Files.createTempDirectory(parent, ".control-",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final Path staging = privateDir.resolve("s");
        final ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            server.bind(UnixDomainSocketAddress.of(staging));
            if (group != null) {
                final GroupPrincipal principal;
                try {
                    principal = staging.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByGroupName(group);
                } catch (final UserPrincipalNotFoundException e) {
                    throw new ConfigException("metrics.controlGroup: no group named '" + group + "'");
                }
                Files.getFileAttributeView(staging, PosixFileAttributeView.class).setGroup(principal);
            }
            Files.setPosixFilePermissions(staging, PosixFilePermissions.fromString(group == null ? "rw-------" : "rw-rw----"));
            Files.move(staging, path, StandardCopyOption.ATOMIC_MOVE);
            return server;
        } catch (final IOException | RuntimeException e) {
            server.close();
            throw e;
        } finally {
            Files.deleteIfExists(staging);
            Files.deleteIfExists(privateDir);
        }
    }

    public Path path() {
        return path;
    }

    /** Whether a socket left by a switch that died was found and replaced. */
    public boolean replacedStale() {
        return replacedStale;
    }

    private void serve() {
        while (!closed) {
            final SocketChannel client;
            try {
                client = server.accept();
            } catch (final IOException e) {
                if (closed) {
                    return;
                }
                continue;
            } catch (final Throwable e) {
                // Whatever happens, the control socket goes on answering.
                continue;
            }
            if (!serving.tryAcquire()) {
                // Every reader busy with a slow client: this one is told so at once, not left waiting.
                refuse(client, "the control socket is serving " + MAX_CLIENTS + " clients already; try again");
                continue;
            }
            try {
                Thread.ofPlatform().name("trimswitch-control-client").daemon().start(() -> {
                    try (client) {
                        answer(client);
                    } catch (final Throwable e) {
                        // One client's broken connection, or a command that broke, ends only its request.
                    } finally {
                        serving.release();
                    }
                });
            } catch (final Throwable e) {
                serving.release();
                refuse(client, "the control socket cannot take a client now: " + e);
            }
        }
    }

    private static void refuse(final SocketChannel client, final String why) {
        try (client) {
            // What it sent already is read, so that closing does not reset the connection before it reads why.
            client.configureBlocking(false);
            client.read(ByteBuffer.allocate(MAX_REQUEST_BYTES));
            client.configureBlocking(true);
            client.write(ByteBuffer.wrap((ControlProtocol.error(why) + "\n").getBytes(StandardCharsets.UTF_8)));
        } catch (final Throwable e) {
            // The client is gone already.
        }
    }

    /** Reads one request within the size and time bounds, runs it as its caller, writes the reply. */
    private void answer(final SocketChannel client) throws IOException {
        final String reply;
        final String request = readRequest(client);
        if (request == null) {
            reply = ControlProtocol.error("the request was not one line of at most " + MAX_REQUEST_BYTES
                + " bytes, with no pause over " + REQUEST_DEADLINE_MS + " ms and within " + REQUEST_WITHIN_MS / 1000 + " s");
        } else {
            final CallerFiles.Caller caller = caller(client);
            // One command at a time: the settings in force have one writer, whatever the number of clients.
            synchronized (commands) {
                reply = ScopedValue.where(ControlCaller.CURRENT, caller).call(() -> ControlProtocol.run(request, commands));
            }
        }
        // Counted from now: a client that waited its turn behind other commands has the whole time to read.
        writeReply(client, reply, System.nanoTime() + REPLY_DEADLINE_MS * 1_000_000);
    }

    /** Who is at the other end, as the kernel saw them connect (SO_PEERCRED); nobody, if that cannot be read. */
    private static CallerFiles.Caller caller(final SocketChannel client) {
        try {
            final jdk.net.UnixDomainPrincipal peer = client.getOption(jdk.net.ExtendedSocketOptions.SO_PEERCRED);
            return new CallerFiles.Caller(CallerFiles.userId(peer.user().getName()), CallerFiles.groupId(peer.group().getName()));
        } catch (final IOException | RuntimeException e) {
            return ControlCaller.NOBODY;
        }
    }

    /** Writes the reply unless the client stops reading for longer than the deadline allows. */
    private static void writeReply(final SocketChannel client, final String reply, final long deadline) throws IOException {
        final ByteBuffer out = ByteBuffer.wrap((reply + "\n").getBytes(StandardCharsets.UTF_8));
        client.configureBlocking(false);
        try (Selector selector = Selector.open()) {
            client.register(selector, SelectionKey.OP_WRITE);
            while (out.hasRemaining()) {
                client.write(out);
                final long left = (deadline - System.nanoTime()) / 1_000_000;
                if (!out.hasRemaining() || left <= 0) {
                    return;
                }
                selector.select(left);
                selector.selectedKeys().clear();
            }
        }
    }

    /**
     * One line, or null when the client sent too much, paused too long, took too long in all, or closed before a
     * newline. Only a pause counts against the idle deadline: a client slowed by a loaded host still sends.
     */
    private static String readRequest(final SocketChannel client) throws IOException {
        final long last = System.nanoTime() + REQUEST_WITHIN_MS * 1_000_000;
        long deadline = System.nanoTime() + REQUEST_DEADLINE_MS * 1_000_000;
        client.configureBlocking(false);
        final ByteBuffer in = ByteBuffer.allocate(MAX_REQUEST_BYTES);
        try (Selector selector = Selector.open()) {
            client.register(selector, SelectionKey.OP_READ);
            while (true) {
                for (int i = 0; i < in.position(); i++) {
                    if (in.get(i) == '\n') {
                        return new String(in.array(), 0, i, StandardCharsets.UTF_8);
                    }
                }
                final long left = (Math.min(deadline, last) - System.nanoTime()) / 1_000_000;
                if (left <= 0 || !in.hasRemaining()) {
                    return null;
                }
                selector.select(left);
                selector.selectedKeys().clear();
                final int read = client.read(in);
                if (read < 0) {
                    return null;
                }
                if (read > 0) {
                    deadline = System.nanoTime() + REQUEST_DEADLINE_MS * 1_000_000;
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
            thread.join(1_000);
            // Before the lock goes: while it is held no other switch can bind, so the socket removed here is ours.
            Files.deleteIfExists(path);
        } catch (final IOException e) {
            // Stopping: a socket left behind is replaced by the next switch.
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.close();
        }
    }

    private static String reason(final IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied (the control socket's directory needs root)";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
