package io.trimswitch.dataplane.io;


import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
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
     * Takes {@code file}'s lock for this process. The file is made with mode 0600, never through a symbolic link, in a
     * directory {@link PrivateFiles#checkDirectory} finds safe. A file that is not this user's own regular 0600 file, or
     * whose lock is held by anyone but the live process it names (a user who locked a file left by a killed switch), is
     * replaced: only a running switch holds a lock off.
     *
     * @param refused makes the exception thrown when a running switch holds it, from that switch's process id
     *                ("unknown" while it has not written it yet)
     */
    public static OwnerLock take(final Path file, final Function<String, RuntimeException> refused) throws IOException {
        PrivateFiles.checkDirectory(file.toAbsolutePath().getParent());
        for (int attempt = 0; attempt < 5; attempt++) {
            final FileChannel channel = openOwn(file);
            final Object opened = fileKey(file);
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
                if (owner.equals("unknown") || ProcessHandle.of(Long.parseLong(owner)).map(ProcessHandle::isAlive).orElse(false)) {
                    throw refused.apply(owner);
                }
                // Held, but not by the switch it names, which is dead: whoever holds it, that file goes and a new one is made.
                if (opened != null && opened.equals(fileKey(file))) {
                    Files.deleteIfExists(file);
                }
                continue;
            }
            if (opened == null || !opened.equals(fileKey(file))) {
                // Replaced between the open and the lock by another switch starting: look again at the one there now.
                channel.close();
                continue;
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
            return new OwnerLock(file, channel);
        }
        throw new IOException("lock file " + file + " keeps changing under the switch");
    }

    /** This user's own regular 0600 file at {@code file}: the one there if it is such, else a new one in its place. */
    private static FileChannel openOwn(final Path file) throws IOException {
        for (int attempt = 0; attempt < 5; attempt++) {
            try {
                return PrivateFiles.createNew(file, PrivateFiles.OWNER_FILE, null);
            } catch (final FileAlreadyExistsException e) {
                // Below: kept if it is ours.
            }
            try {
                final Map<String, Object> attributes = Files.readAttributes(file, "unix:uid,mode,isRegularFile", LinkOption.NOFOLLOW_LINKS);
                if (!(Boolean) attributes.get("isRegularFile") || (Integer) attributes.get("uid") != PrivateFiles.processUid()
                    || ((Integer) attributes.get("mode") & 07777) != 0600) {
                    // A symbolic link, another user's file, or one a killed older switch left with looser rights.
                    Files.deleteIfExists(file);
                    continue;
                }
                return FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
            } catch (final NoSuchFileException e) {
                // Gone meanwhile: made anew on the next turn.
            }
        }
        throw new IOException("lock file " + file + " keeps changing under the switch");
    }

    /** The file's identity (device and inode) at {@code file}, or null when there is none. */
    private static Object fileKey(final Path file) throws IOException {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
        } catch (final NoSuchFileException e) {
            return null;
        }
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
