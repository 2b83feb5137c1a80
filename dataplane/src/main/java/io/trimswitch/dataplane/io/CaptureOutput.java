package io.trimswitch.dataplane.io;

import org.agrona.DirectBuffer;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * A capture file being written: little-endian fields and frames go into one direct buffer, each frame
 * copied once straight from the packet buffer, and the buffer goes to the file when full.
 */
final class CaptureOutput implements Closeable {
    private static final int BUFFER_BYTES = 1 << 20;
    private static final Set<PosixFilePermission> MODE = PosixFilePermissions.fromString("rw-r--r--");

    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    /** Frames in the buffer, not yet in the file. */
    private long buffered;
    /** Frames the file holds: a write that fails loses those still buffered, and says how many. */
    private volatile long flushed;

    CaptureOutput(final Path path) {
        this(path, open(path));
    }

    /** Into {@code channel}, already open on {@code path} (a file opened with someone else's rights). */
    CaptureOutput(final Path path, final FileChannel channel) {
        this.path = path;
        this.channel = channel;
    }

    /**
     * Made with mode 0644 (whatever the umask), or an existing regular file replaced; never through a symbolic link, and
     * never a FIFO or a device, whose open could block or whose writes go elsewhere.
     */
    private static FileChannel open(final Path path) {
        try {
            if (Files.exists(path, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
                throw new UncheckedIOException("cannot write " + path + ": not a regular file (a symbolic link, a FIFO or a device)", new IOException());
            }
            final FileChannel channel = FileChannel.open(path, Set.of(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS), PosixFilePermissions.asFileAttribute(MODE));
            Files.getFileAttributeView(path, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).setPermissions(MODE);
            return channel;
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write " + path + ": " + e.getMessage(), e);
        }
    }

    /** Counts one more frame among those the buffer holds. */
    void frameBuffered() {
        buffered++;
    }

    /** Frames known to be in the file. */
    long framesFlushed() {
        return flushed;
    }

    /** Makes room for a record of {@code bytes}; records never straddle two writes. */
    ByteBuffer reserve(final int bytes) {
        if (bytes > buffer.capacity()) {
            throw new IllegalArgumentException("record of " + bytes + " bytes is larger than the output buffer");
        }
        if (buffer.remaining() < bytes) {
            flush();
        }
        return buffer;
    }

    void putFrame(final DirectBuffer frame, final int offset, final int length) {
        frame.getBytes(offset, buffer, buffer.position(), length);
        buffer.position(buffer.position() + length);
    }

    void pad() {
        while ((buffer.position() & 3) != 0) {
            buffer.put((byte) 0);
        }
    }

    private void flush() {
        buffer.flip();
        try {
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write " + path + ": " + e.getMessage(), e);
        }
        buffer.clear();
        flushed += buffered;
        buffered = 0;
    }

    @Override
    public void close() {
        flush();
        try {
            channel.close();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot close " + path + ": " + e.getMessage(), e);
        }
    }
}
