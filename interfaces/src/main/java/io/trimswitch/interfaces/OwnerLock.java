package io.trimswitch.interfaces;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Function;

/**
 * A lock file that names the running switch holding it: locked for as long as the switch runs and holding its process
 * id. The kernel drops the lock when the process ends, however it ends (SIGKILL too), so a file a dead switch left is
 * simply taken over; a switch that stops removes its file, so that none names a stopped switch.
 */
public final class OwnerLock implements AutoCloseable {
    private final Path file;
    private final FileChannel channel;

    private OwnerLock(final Path file, final FileChannel channel) {
        this.file = file;
        this.channel = channel;
    }

    /**
     * Takes {@code file}'s lock for this process.
     *
     * @param refused makes the exception thrown when a running switch holds it, from that switch's process id
     *                ("unknown" while it has not written it yet)
     */
    public static OwnerLock take(final Path file, final Function<String, RuntimeException> refused) throws IOException {
        final FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (final OverlappingFileLockException e) {
            lock = null; // held by a switch in this very process
        } catch (final IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        if (lock == null) {
            final String owner = readOwner(channel);
            channel.close();
            throw refused.apply(owner);
        }
        channel.truncate(0);
        channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
        return new OwnerLock(file, channel);
    }

    private static String readOwner(final FileChannel channel) throws IOException {
        final ByteBuffer bytes = ByteBuffer.allocate(24);
        channel.read(bytes, 0);
        final String text = new String(bytes.array(), 0, bytes.position(), StandardCharsets.US_ASCII).trim();
        return text.matches("[0-9]{1,10}") ? text : "unknown";
    }

    /**
     * Removes the file, then unlocks it. In that order: a switch that opened the old file meanwhile is refused, as it is
     * still ours; one that comes after makes a new file.
     */
    @Override
    public void close() {
        try {
            Files.deleteIfExists(file);
        } catch (final IOException e) {
            // Left behind unlocked: the next switch takes it over.
        }
        try {
            channel.close();
        } catch (final IOException e) {
            // Closing releases the lock whatever close says.
        }
    }
}
