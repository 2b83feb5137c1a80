package io.trimswitch.interfaces;

import io.trimswitch.dataplane.io.OwnerLock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * One switch per interface: a lock file per network namespace and interface, {@code /run/trimswitch/<netns>/<name>.lock}
 * (the namespace by its inode), locked for as long as the switch runs and holding its process id. The kernel drops the
 * lock when the process ends, however it ends (SIGKILL too), so a file left by a dead switch is simply taken over.
 * A switch that stops removes its namespace's directory too when no other switch's lock is left in it.
 */
public final class InterfaceLocks implements AutoCloseable {
    /** Where the lock files live. */
    public static final Path DIRECTORY = Path.of("/run/trimswitch");

    /** By interface name; changed by the control thread ({@code ctl add-port}, {@code del-port}) and at stop. */
    private final java.util.Map<String, OwnerLock> held;
    private final Path namespace;

    private InterfaceLocks(final java.util.Map<String, OwnerLock> held, final Path namespace) {
        this.held = held;
        this.namespace = namespace;
    }

    /**
     * Locks every interface of {@code names}, under {@code directory}.
     *
     * @throws IllegalStateException in one line naming the interface and the process of the switch that has it, or why
     *                               its lock cannot be taken
     */
    public static InterfaceLocks acquire(final Path directory, final List<String> names) {
        final java.util.Map<String, OwnerLock> held = new java.util.LinkedHashMap<>();
        Path namespace = null;
        try {
            namespace = directory.resolve(networkNamespace());
            // Made with exact modes whatever the umask, and refused if anyone but root could write them.
            io.trimswitch.dataplane.io.PrivateFiles.directory(directory, io.trimswitch.dataplane.io.PrivateFiles.PASS_THROUGH_DIRECTORY);
            for (final String name : names) {
                held.put(name, lockIn(namespace, name));
            }
            return new InterfaceLocks(held, namespace);
        } catch (final IOException | RuntimeException e) {
            held.values().forEach(OwnerLock::close);
            if (namespace != null) {
                removeIfEmpty(namespace);
            }
            if (e instanceof IllegalStateException refused) {
                throw refused;
            }
            throw new IllegalStateException("cannot lock the interfaces under " + directory + ": "
                + (e instanceof java.nio.file.AccessDeniedException ? "permission denied (interface ports need root)" : e.getMessage()));
        }
    }

    /**
     * Locks {@code name} in {@code namespace}, making that directory first: again if a switch that stopped meanwhile
     * removed it as empty.
     */
    private static OwnerLock lockIn(final Path namespace, final String name) throws IOException {
        for (int attempt = 1; ; attempt++) {
            io.trimswitch.dataplane.io.PrivateFiles.directory(namespace, io.trimswitch.dataplane.io.PrivateFiles.OWNER_DIRECTORY);
            try {
                return lock(namespace, name);
            } catch (final java.nio.file.NoSuchFileException e) {
                if (attempt == 3) {
                    throw e;
                }
            }
        }
    }

    private static OwnerLock lock(final Path namespace, final String name) throws IOException {
        if (name.isEmpty() || name.contains("/") || name.equals(".") || name.equals("..")) {
            throw new IllegalStateException("interface " + name + ": not a Linux interface name");
        }
        final Path file = namespace.resolve(name + ".lock");
        return OwnerLock.take(file, owner -> new IllegalStateException("interface " + name
            + " is already attached by a running switch, process " + owner + " (its lock: " + file + ")"));
    }

    /**
     * Locks one more interface, while the switch runs.
     *
     * @throws IllegalStateException in one line, as {@link #acquire} does
     */
    public synchronized void add(final String name) {
        try {
            held.put(name, lockIn(namespace, name));
        } catch (final IOException e) {
            throw new IllegalStateException("cannot lock interface " + name + ": " + e.getMessage());
        }
    }

    /** Unlocks one interface the switch no longer uses, removing its file. */
    public synchronized void remove(final String name) {
        final OwnerLock lock = held.remove(name);
        if (lock != null) {
            lock.close();
        }
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
     * Unlocks every interface and removes its file ({@link OwnerLock#close()}), then the namespace's directory if that
     * left it empty: a directory, never what a symbolic link there points to; one holding another switch's lock stays.
     */
    @Override
    public synchronized void close() {
        held.values().forEach(OwnerLock::close);
        held.clear();
        removeIfEmpty(namespace);
    }

    private static void removeIfEmpty(final Path namespace) {
        try {
            if (Files.isDirectory(namespace, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                // rmdir: refused for a directory that is not empty, so another switch's locks stay where they are.
                Files.delete(namespace);
            }
        } catch (final IOException e) {
            // Not empty (another switch here), or gone already: either way nothing of this switch's is left.
        }
    }
}
