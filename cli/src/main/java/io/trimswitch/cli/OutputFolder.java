package io.trimswitch.cli;

import io.trimswitch.config.ConfigException;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;

/**
 * A folder one run writes into, held for the run: its file {@value #MARK} names the command that writes there and is
 * locked while it runs, so that a second run into the same folder is refused naming the first; once the run ends it
 * lists what the run made. What an earlier run of the same command made is cleared before the next starts, never
 * mixed with its results; a folder holding anything else is refused, naming it. A run stopped by a signal (Ctrl-C,
 * SIGTERM) removes what it wrote, and says so.
 */
final class OutputFolder implements AutoCloseable {
    /** The folder's mark: which command wrote it, and while it runs, its process. */
    static final String MARK = ".trimswitch-out";
    private static final int MOST_NAMED = 3;
    private static final String MADE = "made: ";
    private static final java.util.Set<java.nio.file.attribute.PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-r--r--");
    private static final java.util.Set<java.nio.file.attribute.PosixFilePermission> FOLDER_MODE = PosixFilePermissions.fromString("rwxr-xr-x");

    private final Path folder;
    private final boolean made;
    private final FileChannel channel;
    private final PrintWriter err;
    private final String holder;
    /** What the folder held when the run started: a merge into a shard's folder keeps that shard's files. */
    private final java.util.Set<String> before;
    private final Thread onInterrupt;
    private volatile boolean finished;

    private OutputFolder(final Path folder, final boolean made, final FileChannel channel, final PrintWriter err, final String holder,
        final java.util.Set<String> before) {
        this.folder = folder;
        this.holder = holder;
        this.before = before;
        this.made = made;
        this.channel = channel;
        this.err = err;
        this.onInterrupt = new Thread(this::interrupted, "trimswitch-output-folder");
        Runtime.getRuntime().addShutdownHook(onInterrupt);
    }

    /**
     * Takes {@code folder} (made if missing, mode 0755) for a run of {@code command}, clearing what an earlier run of it
     * left unless {@code keepEarlier} (a merge into one of its own inputs).
     *
     * @throws ConfigException in one line when another run holds it, or it holds files no run of {@code command} made
     */
    static OutputFolder claim(final String option, final Path folder, final String command, final boolean keepEarlier, final PrintWriter err) {
        OutputFiles.requireFolder(option, folder);
        final boolean made = !Files.exists(folder, LinkOption.NOFOLLOW_LINKS);
        final Path mark = folder.resolve(MARK);
        FileChannel channel = null;
        boolean hadMark = false;
        try {
            if (made) {
                Files.createDirectories(folder);
                Files.getFileAttributeView(folder, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .setPermissions(PosixFilePermissions.fromString("rwxr-xr-x"));
            }
            hadMark = Files.exists(mark, LinkOption.NOFOLLOW_LINKS);
            if (hadMark && !Files.isRegularFile(mark, LinkOption.NOFOLLOW_LINKS)) {
                throw new ConfigException(option + " " + folder + ": its " + MARK + " is not a regular file; remove it");
            }
            channel = FileChannel.open(mark, java.util.Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));
            if (!hadMark) {
                Files.getFileAttributeView(mark, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .setPermissions(PosixFilePermissions.fromString("rw-r--r--"));
            }
            final List<String> marked = contents(channel);
            final String earlier = marked.isEmpty() ? "" : marked.get(0);
            if (!locked(channel)) {
                throw new ConfigException(option + " " + folder + ": in use by " + (earlier.isEmpty() ? "another trimswitch run" : io.trimswitch.dataplane.io.InputFiles.cut(earlier))
                    + "; wait for it to end or pick another folder");
            }
            final List<Path> left = entries(folder);
            if (!left.isEmpty()) {
                final java.util.Set<String> madeEarlier = earlier.startsWith("trimswitch " + command + ",")
                    ? marked.stream().filter(line -> line.startsWith(MADE)).map(line -> line.substring(MADE.length())).collect(java.util.stream.Collectors.toSet())
                    : java.util.Set.of();
                final List<Path> foreign = left.stream().filter(p -> !madeEarlier.contains(p.getFileName().toString())).toList();
                if (!foreign.isEmpty()) {
                    throw new ConfigException(option + " " + folder + ": holds " + foreign.size() + " file(s) no earlier 'trimswitch " + command
                        + "' made (" + String.join(", ", foreign.stream().limit(MOST_NAMED).map(p -> p.getFileName().toString()).toList())
                        + (foreign.size() > MOST_NAMED ? ", ..." : "") + "); empty it or pick another folder");
                }
                if (!keepEarlier) {
                    removeAll(left);
                    err.println("trimswitch: " + option + " " + folder + ": cleared " + left.size() + " file(s) an earlier 'trimswitch " + command + "' left");
                }
            }
            final String holder = "trimswitch " + command + ", pid " + ProcessHandle.current().pid();
            write(channel, holder + "\n");
            final java.util.Set<String> before = new java.util.HashSet<>();
            entries(folder).forEach(p -> before.add(p.getFileName().toString()));
            return new OutputFolder(folder, made, channel, err, holder, before);
        } catch (final IOException e) {
            unclaim(channel, hadMark ? null : mark);
            throw new ConfigException(option + " " + folder + ": cannot write there (" + io.trimswitch.config.IoReason.of(e) + ")");
        } catch (final RuntimeException e) {
            unclaim(channel, hadMark ? null : mark);
            throw e;
        }
    }

    /** A single output file (replay's --out), removed with a line saying so if a signal stops the run before it is whole. */
    static final class PendingFile implements AutoCloseable {
        private final Thread onInterrupt;

        PendingFile(final Path file, final PrintWriter err) {
            onInterrupt = new Thread(() -> {
                try {
                    if (Files.deleteIfExists(file)) {
                        err.println("trimswitch: interrupted: removed the unfinished " + file);
                    }
                } catch (final IOException e) {
                    err.println("trimswitch: interrupted: " + file + " is unfinished (" + e.getMessage() + ")");
                }
                err.flush();
            }, "trimswitch-output-file");
            Runtime.getRuntime().addShutdownHook(onInterrupt);
        }

        @Override
        public void close() {
            try {
                Runtime.getRuntime().removeShutdownHook(onInterrupt);
            } catch (final IllegalStateException e) {
                // A signal came just as the run ended: the hook removes the file and says so, as for any interrupted run.
            }
        }
    }

    /** The run ended (well or not): its files stay, the folder is free for the next run. */
    @Override
    public void close() {
        finished = true;
        try {
            Runtime.getRuntime().removeShutdownHook(onInterrupt);
        } catch (final IllegalStateException e) {
            // Shutting down already: the hook sees the run finished.
        }
        try {
            final StringBuilder text = new StringBuilder(holder).append('\n');
            for (final Path made : entries(folder)) {
                text.append(MADE).append(made.getFileName()).append('\n');
            }
            settleModes(entries(folder));
            write(channel, text.toString());
        } catch (final IOException e) {
            // Unlisted, what it made counts as no run's: the next run names it rather than clear it.
        }
        close(channel);
    }

    /** At exit before the run finished: a signal stopped it, so what it wrote is incomplete and goes. */
    private void interrupted() {
        if (finished) {
            return;
        }
        // The run's threads may still be writing while this hook runs: a file they make meanwhile is removed on a second pass.
        List<Path> left = List.of();
        for (int pass = 0; pass < 5; pass++) {
            try {
                removeAll(madeByThisRun());
                left = madeByThisRun();
            } catch (final IOException | RuntimeException e) {
                left = List.of(folder);
            }
            if (left.isEmpty()) {
                break;
            }
            Thread.onSpinWait();
        }
        if (left.isEmpty()) {
            try {
                if (made && entries(folder).isEmpty()) {
                    Files.deleteIfExists(folder.resolve(MARK));
                    Files.deleteIfExists(folder);
                }
            } catch (final IOException e) {
                // The folder stays, empty but for its mark: the next run takes it as its own.
            }
            err.println("trimswitch: interrupted: removed the unfinished run's files from " + folder);
        } else {
            err.println("trimswitch: interrupted: " + folder + " holds an unfinished run's files: " + String.join(", ",
                left.stream().limit(MOST_NAMED).map(p -> p.getFileName().toString()).toList()) + (left.size() > MOST_NAMED ? ", ..." : ""));
        }
        err.flush();
    }

    private List<Path> madeByThisRun() throws IOException {
        return entries(folder).stream().filter(p -> !before.contains(p.getFileName().toString())).toList();
    }

    private static boolean locked(final FileChannel channel) throws IOException {
        try {
            final FileLock lock = channel.tryLock();
            return lock != null;
        } catch (final OverlappingFileLockException e) {
            return false; // held by a run in this very process
        }
    }

    /** The mark's lines: who holds or last held the folder, then what that run made (bounded: it is a file anyone could fill). */
    private static List<String> contents(final FileChannel channel) throws IOException {
        final ByteBuffer bytes = ByteBuffer.allocate(1 << 20);
        while (bytes.hasRemaining() && channel.read(bytes, bytes.position()) > 0) {
            // Read on to the end or the bound.
        }
        return new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8).lines().map(String::strip).toList();
    }

    private static void write(final FileChannel channel, final String text) throws IOException {
        channel.truncate(0);
        final ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        for (long at = 0; bytes.hasRemaining(); ) {
            at += channel.write(bytes, at);
        }
    }

    private static List<Path> entries(final Path folder) throws IOException {
        try (Stream<Path> list = Files.list(folder)) {
            return list.filter(p -> !p.getFileName().toString().equals(MARK)).sorted().toList();
        }
    }

    /**
     * Gives what the run made explicit modes, whatever the umask and whichever library wrote it (charts, CSVs): files
     * 0644, folders 0755, a symbolic link left as it is, never followed.
     */
    private static void settleModes(final List<Path> paths) throws IOException {
        for (final Path path : paths) {
            Files.walkFileTree(path, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(final Path dir, final BasicFileAttributes attributes) throws IOException {
                    Files.setPosixFilePermissions(dir, FOLDER_MODE);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(final Path file, final BasicFileAttributes attributes) throws IOException {
                    if (attributes.isRegularFile()) {
                        Files.setPosixFilePermissions(file, FILE_MODE);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        }
    }

    /** Deletes each path, a folder with all it holds; a symbolic link is removed, never followed. */
    private static void removeAll(final List<Path> paths) throws IOException {
        for (final Path path : paths) {
            Files.walkFileTree(path, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(final Path file, final BasicFileAttributes attributes) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(final Path dir, final IOException e) throws IOException {
                    if (e != null) {
                        throw e;
                    }
                    Files.delete(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        }
    }

    /** A claim refused: the mark it made goes, the folder is as it was. */
    private static void unclaim(final FileChannel channel, final Path madeMark) {
        close(channel);
        if (madeMark != null && channel != null) {
            try {
                Files.deleteIfExists(madeMark);
            } catch (final IOException e) {
                // Left behind: harmless, it marks no run.
            }
        }
    }

    private static void close(final FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (final IOException e) {
                // Closing releases the lock; nothing else to do.
            }
        }
    }
}
