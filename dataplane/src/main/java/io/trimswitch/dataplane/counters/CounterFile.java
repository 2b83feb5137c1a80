package io.trimswitch.dataplane.counters;

import io.trimswitch.dataplane.io.InputFiles;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Reads a running switch's counters from the file its {@link CounterRegistry} maps, as another process: read-only, lock-free. */
public final class CounterFile {
    private CounterFile() {
    }

    /**
     * A reader of the counters in {@code file}, mapped read-only; the values it reads are live while the switch runs.
     *
     * @throws java.nio.file.NoSuchFileException when there is no such file
     * @throws IOException naming what is wrong when the file cannot be read or is not a switch's counters
     */
    public static CountersReader open(final Path file) throws IOException {
        if (Files.isDirectory(file)) {
            throw notCounters(file, "a directory");
        }
        if (!Files.exists(file)) {
            // Said as such: no switch runs there, which callers tell apart from a file that is not counters.
            throw new java.nio.file.NoSuchFileException(file.toString());
        }
        try (FileChannel channel = InputFiles.open(file, InputFiles.COUNTERS)) {
            final long size = channel.size();
            if (size < CounterRegistry.HEADER_BYTES) {
                throw notCounters(file, "too short");
            }
            final MappedByteBuffer header = channel.map(FileChannel.MapMode.READ_ONLY, 0, CounterRegistry.HEADER_BYTES);
            final UnsafeBuffer fields = new UnsafeBuffer(header);
            if (fields.getIntAcquire(CounterRegistry.MAGIC_OFFSET) != CounterRegistry.MAGIC) {
                throw notCounters(file, "no trimswitch counters header");
            }
            final int version = fields.getInt(CounterRegistry.VERSION_OFFSET);
            if (version != CounterRegistry.VERSION) {
                throw notCounters(file, "format version " + version + ", this trimswitch reads " + CounterRegistry.VERSION);
            }
            final int metadataLength = fields.getInt(CounterRegistry.METADATA_LENGTH_OFFSET);
            final int valuesLength = fields.getInt(CounterRegistry.VALUES_LENGTH_OFFSET);
            if (metadataLength <= 0 || valuesLength <= 0 || metadataLength / CountersReader.METADATA_LENGTH != valuesLength / CountersReader.COUNTER_LENGTH
                || CounterRegistry.HEADER_BYTES + (long) metadataLength + valuesLength != size) {
                throw notCounters(file, "its lengths do not match its size");
            }
            final ByteBuffer body = channel.map(FileChannel.MapMode.READ_ONLY, CounterRegistry.HEADER_BYTES, (long) metadataLength + valuesLength);
            return new CountersReader(new UnsafeBuffer(body, 0, metadataLength), new UnsafeBuffer(body, metadataLength, valuesLength));
        }
    }

    /** The process id of the switch that made {@code file}, or 0 when it does not say. */
    public static long ownerPid(final Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            if (channel.size() < CounterRegistry.HEADER_BYTES) {
                return 0;
            }
            final UnsafeBuffer fields = new UnsafeBuffer(channel.map(FileChannel.MapMode.READ_ONLY, 0, CounterRegistry.HEADER_BYTES));
            return fields.getInt(CounterRegistry.MAGIC_OFFSET) == CounterRegistry.MAGIC ? fields.getLong(CounterRegistry.PID_OFFSET) : 0;
        }
    }

    /**
     * The process id that {@code file} records as its owner when that switch is no longer running (it died without
     * closing, so the counters are frozen), or 0 when its owner runs or the file names none. A running switch holds a
     * lock on its file, which the kernel releases when the process dies, whatever way it dies.
     */
    public static long deadOwner(final Path file) throws IOException {
        final long pid = ownerPid(file);
        if (pid <= 0 || pid == ProcessHandle.current().pid()) {
            // Never probe this process's own file: closing the probe's channel would release the lock its switch holds.
            return 0;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            final FileLock probe = channel.tryLock(0, Long.MAX_VALUE, true);
            if (probe == null) {
                return 0;
            }
            probe.release();
            return pid;
        } catch (final OverlappingFileLockException e) {
            return 0;
        }
    }

    private static IOException notCounters(final Path file, final String why) {
        return new IOException(file + " is not a switch's counters file (" + why + ")");
    }
}
