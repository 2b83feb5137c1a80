package io.trimswitch.realtime.interfaces;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * One switch per interface: a lock file per network namespace and interface, {@code /run/trimswitch/<netns>/<name>.lock}
 * (the namespace by its inode), locked for as long as the switch runs and holding its process id. The kernel drops the
 * lock when the process ends, however it ends (SIGKILL too), so a file left by a dead switch is simply taken over.
 */
public final class InterfaceLocks implements AutoCloseable {
    /** Where the lock files live. */
    public static final Path DIRECTORY = Path.of("/run/trimswitch");

    private final List<FileChannel> held;
    private final List<Path> files;

    private InterfaceLocks(final List<FileChannel> held, final List<Path> files) {
        this.held = held;
        this.files = files;
    }

    /**
     * Locks every interface of {@code names}, under {@code directory}.
     *
     * @throws IllegalStateException in one line naming the interface and the process of the switch that has it, or why
     *                               its lock cannot be taken
     */
    public static InterfaceLocks acquire(final Path directory, final List<String> names) {
        final List<FileChannel> held = new ArrayList<>();
        final List<Path> files = new ArrayList<>();
        try {
            final Path namespace = directory.resolve(networkNamespace());
            Files.createDirectories(namespace);
            for (final String name : names) {
                if (name.isEmpty() || name.contains("/") || name.equals(".") || name.equals("..")) {
                    throw new IllegalStateException("interface " + name + ": not a Linux interface name");
                }
                files.add(namespace.resolve(name + ".lock"));
                held.add(lock(files.getLast(), name));
            }
            return new InterfaceLocks(held, files);
        } catch (final IOException | RuntimeException e) {
            held.forEach(InterfaceLocks::closeQuietly);
            if (e instanceof IllegalStateException refused) {
                throw refused;
            }
            throw new IllegalStateException("cannot lock the interfaces under " + directory + ": "
                + (e instanceof java.nio.file.AccessDeniedException ? "permission denied (interface ports need root)" : e.getMessage()));
        }
    }

    private static FileChannel lock(final Path file, final String name) throws IOException {
        final FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (final OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            final String owner = readOwner(channel);
            channel.close();
            throw new IllegalStateException("interface " + name + " is already attached by a running switch, process "
                + owner + " (its lock: " + file + ")");
        }
        final byte[] pid = (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII);
        channel.truncate(0);
        channel.write(ByteBuffer.wrap(pid), 0);
        return channel;
    }

    /** The process id the owner wrote, or "unknown" while it has not written it yet. */
    private static String readOwner(final FileChannel channel) throws IOException {
        final ByteBuffer bytes = ByteBuffer.allocate(24);
        channel.read(bytes, 0);
        final String text = new String(bytes.array(), 0, bytes.position(), StandardCharsets.US_ASCII).trim();
        return text.matches("[0-9]{1,10}") ? text : "unknown";
    }

    /** The network namespace this process runs in, by its inode: one directory of locks per namespace. */
    static String networkNamespace() throws IOException {
        final String link = Files.readSymbolicLink(Path.of("/proc/self/ns/net")).toString();
        final String inode = link.replaceAll("[^0-9]", "");
        if (inode.isEmpty()) {
            throw new IOException("cannot read this process's network namespace from /proc/self/ns/net");
        }
        return inode;
    }

    /**
     * Unlocks every interface and removes its file, so that no file names a switch that has stopped. Removed while still
     * locked: a switch that opened the old file meanwhile is refused as the interface is still ours; one that comes
     * after makes a new file. (After a crash the file stays, unlocked, for the next switch to take over.)
     */
    @Override
    public void close() {
        for (final Path file : files) {
            try {
                Files.deleteIfExists(file);
            } catch (final IOException e) {
                // Left behind unlocked: the next switch takes it over.
            }
        }
        files.clear();
        held.forEach(InterfaceLocks::closeQuietly);
        held.clear();
    }

    private static void closeQuietly(final FileChannel channel) {
        try {
            channel.close();
        } catch (final IOException e) {
            // Closing releases the lock whatever close says; nothing else to undo.
        }
    }
}
