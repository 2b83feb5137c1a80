package io.trimswitch.dataplane.counters;

import io.trimswitch.dataplane.io.PrivateFiles;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The counters file a live switch's registry holds: made afresh in a safe directory, its room reserved, locked while
 * the switch runs so that a second switch can tell it is taken, and deleted when the switch closes.
 */
final class HeldCounterFile {
    /**
     * Files this process's registries hold. Asked here first: probing a file's lock through a second channel of this
     * process would release the lock its holder took, when that channel closes.
     */
    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

    private final Path file;
    private final MappedByteBuffer memory;
    private final FileChannel channel;
    private final FileLock lock;
    /** The process id of the dead switch whose file this one replaced; 0 when none. */
    private final long replacedOwner;

    private HeldCounterFile(final Path file, final MappedByteBuffer memory, final FileChannel channel, final FileLock lock,
        final long replacedOwner) {
        this.file = file;
        this.memory = memory;
        this.channel = channel;
        this.lock = lock;
        this.replacedOwner = replacedOwner;
    }

    /**
     * {@code file} made afresh for {@code capacity} counters with its header written, readable by {@code group} when
     * not null (mode 0640, else 0600).
     *
     * @throws IllegalStateException naming the file when another running switch holds it, or it cannot be made
     */
    static HeldCounterFile make(final Path file, final int capacity, final String group) {
        PrivateFiles.directory(file.toAbsolutePath().getParent(), PrivateFiles.PASS_THROUGH_DIRECTORY);
        final Path held = file.toAbsolutePath().normalize();
        if (!HELD.add(held)) {
            throw new IllegalStateException("counters file " + file + " is in use by another switch of this process");
        }
        FileChannel channel = null;
        boolean made = false;
        try {
            final long deadOwner = refuseIfHeld(file);
            // A new file, not the old one truncated: a reader that still maps the old one keeps reading it safely.
            Files.deleteIfExists(file);
            channel = PrivateFiles.createNew(file, group == null ? PrivateFiles.OWNER_FILE : "rw-r-----", group);
            made = true;
            final FileLock lock = channel.tryLock();
            if (lock == null) {
                throw new IllegalStateException("counters file " + file + " is in use by another running switch");
            }
            final int metadataLength = capacity * CountersReader.METADATA_LENGTH;
            final int valuesLength = capacity * CountersReader.COUNTER_LENGTH;
            final long length = CounterRegistry.HEADER_BYTES + (long) metadataLength + valuesLength;
            reserve(channel, file, length);
            final MappedByteBuffer memory = channel.map(FileChannel.MapMode.READ_WRITE, 0, length);
            final UnsafeBuffer header = new UnsafeBuffer(memory, 0, CounterRegistry.HEADER_BYTES);
            header.putInt(CounterRegistry.VERSION_OFFSET, CounterRegistry.VERSION);
            header.putInt(CounterRegistry.METADATA_LENGTH_OFFSET, metadataLength);
            header.putInt(CounterRegistry.VALUES_LENGTH_OFFSET, valuesLength);
            header.putLong(CounterRegistry.PID_OFFSET, ProcessHandle.current().pid());
            // Last, so that a reader that sees the magic sees the lengths.
            header.putIntRelease(CounterRegistry.MAGIC_OFFSET, CounterRegistry.MAGIC);
            return new HeldCounterFile(file, memory, channel, lock, deadOwner);
        } catch (final IOException | OverlappingFileLockException e) {
            abandon(channel, made ? file : null, held);
            throw new IllegalStateException("counters file " + file + ": cannot make it: " + e.getMessage(), e);
        } catch (final RuntimeException e) {
            abandon(channel, made ? file : null, held);
            throw e;
        }
    }

    /**
     * Writes every byte of the file's {@code length} now, so that a file system without room for it (a small tmpfs)
     * says so here, as an error to report, and not later as a fault (SIGBUS) on a page of the mapping.
     */
    private static void reserve(final FileChannel channel, final Path file, final long length) throws IOException {
        final java.nio.file.FileStore store = Files.getFileStore(file.toAbsolutePath().getParent());
        final long free = store.getUsableSpace();
        final ByteBuffer zeros = ByteBuffer.allocate(64 * 1024);
        long at = 0;
        try {
            while (at < length) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), length - at));
                while (zeros.hasRemaining()) {
                    at += channel.write(zeros, at);
                }
            }
            channel.force(false);
        } catch (final IOException e) {
            throw new IOException("it needs " + length + " bytes and " + store + " has " + free + " free (" + e.getMessage() + ")", e);
        }
    }

    /** Undoes a failed {@link #mapped}: the channel closed, the file this call made deleted, its name free again. */
    private static void abandon(final FileChannel channel, final Path madeFile, final Path held) {
        closeQuietly(channel);
        if (madeFile != null) {
            try {
                Files.deleteIfExists(madeFile);
            } catch (final IOException ignored) {
                // Already failing with the first cause.
            }
        }
        HELD.remove(held);
    }

    /**
     * Refuses a file whose lock a running switch holds; a file left by a switch that died holds no lock. Returns the
     * process id of the dead switch that left it (0 when there is no file, or it does not say).
     */
    private static long refuseIfHeld(final Path file) {
        if (!Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return 0;
        }
        if (!Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            // A symbolic link or anything else in the switch's own directory is not a switch's counters: replaced.
            return 0;
        }
        try (FileChannel existing = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            final FileLock probe = existing.tryLock();
            final long pid = ownerPidOrZero(file);
            if (probe == null && pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                throw new IllegalStateException("counters file " + file + " is in use by another running switch (process " + pid + ")");
            }
            // No lock, or a lock held by someone other than the live switch the file names (it died): replaced.
            if (probe != null) {
                probe.release();
            }
            return pid;
        } catch (final IOException e) {
            throw new IllegalStateException("counters file " + file + ": cannot open it: " + e.getMessage(), e);
        }
    }

    private static long ownerPidOrZero(final Path file) {
        try {
            return CounterFile.ownerPid(file);
        } catch (final IOException e) {
            return 0;
        }
    }

    Path file() {
        return file;
    }

    /** The whole file, header first. */
    ByteBuffer memory() {
        return memory;
    }

    long replacedOwner() {
        return replacedOwner;
    }

    /** Deletes the file (readers that still map it keep its last values) and lets another switch take its name. */
    void release() {
        try {
            Files.deleteIfExists(file);
            lock.release();
            channel.close();
        } catch (final IOException e) {
            throw new UncheckedIOException("counters file " + file + ": " + e.getMessage(), e);
        } finally {
            HELD.remove(file.toAbsolutePath().normalize());
        }
    }

    private static void closeQuietly(final FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (final IOException ignored) {
                // Already failing with the first cause.
            }
        }
    }
}
