package io.trimswitch.dataplane.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;

/**
 * The one way the tool reads a file a user named (settings, htsim files, flow plans, captures): only a regular file,
 * never through a symbolic link another user could have placed, never more than its kind's limit, and a file that is
 * not text is said to be so. A device (/dev/zero), a FIFO or a directory is refused before it is opened, so nothing
 * blocks or fills the memory. Every refusal is one line naming the file and the reason ({@link Refused}).
 */
public final class InputFiles {
    /** What a file is read as: the name its messages use (with its article), the most bytes it may hold and the longest line a text may have. */
    public record Kind(String what, long maxBytes, int maxLineBytes) {
    }

    public static final Kind SETTINGS = new Kind("a settings file", 1L << 20, 1 << 20);
    public static final Kind HTSIM = new Kind("an htsim file", 256L << 20, 64 << 10);
    public static final Kind FLOW_PLAN = new Kind("a flow plan", 64L << 20, 64 << 10);
    /** A capture is mapped, not read into the heap: 2 GiB is what one mapping holds. */
    public static final Kind CAPTURE = new Kind("a capture", Integer.MAX_VALUE, Integer.MAX_VALUE);
    /** A running switch's counters, mapped. */
    public static final Kind COUNTERS = new Kind("a counters file", 1L << 30, Integer.MAX_VALUE);
    /** A file the tool wrote itself and reads back (an evaluation's runs and manifests). */
    public static final Kind RECORD = new Kind("a record", 256L << 20, Integer.MAX_VALUE);

    /** The longest part of a file's content an error message quotes. */
    public static final int QUOTED_CHARS = 80;

    /** Why a file was not read, in one line that names it. */
    public static final class Refused extends RuntimeException {
        public Refused(final String message) {
            super(message);
        }
    }

    private static final int OTHERS_WRITE = 0022;
    private static final int STICKY = 01000;
    private static final int MOST_LINKS = 40;
    private static final int CHUNK_BYTES = 64 << 10;
    private static final LinkOption[] NO_FOLLOW = {LinkOption.NOFOLLOW_LINKS};

    private InputFiles() {
    }

    /** {@code token} in quotes, cut to {@link #QUOTED_CHARS} characters: a message never repeats a whole line of a file. */
    public static String quoted(final String token) {
        return "'" + cut(token) + "'";
    }

    /** {@code token} cut to {@link #QUOTED_CHARS} characters, an ellipsis marking the cut. */
    public static String cut(final String token) {
        return token.length() <= QUOTED_CHARS ? token : token.substring(0, QUOTED_CHARS) + "…";
    }

    /**
     * The text of {@code file}, UTF-8, checked as {@link #open} does and no line longer than its kind allows: read in
     * chunks and refused at the first line too long, so a huge file of one line costs a chunk, not its size.
     */
    public static String text(final Path file, final Kind kind) {
        try (FileChannel channel = open(file, kind)) {
            final java.io.ByteArrayOutputStream whole = new java.io.ByteArrayOutputStream((int) Math.min(channel.size(), CHUNK_BYTES));
            final ByteBuffer chunk = ByteBuffer.allocate(CHUNK_BYTES);
            int line = 1;
            long lineBytes = 0;
            long total = 0;
            while (channel.read(chunk.clear()) > 0) {
                for (int i = 0; i < chunk.position(); i++) {
                    if (chunk.get(i) == '\n') {
                        line++;
                        lineBytes = 0;
                    } else if (++lineBytes > kind.maxLineBytes()) {
                        throw new Refused(file + " line " + line + ": longer than the " + kind.maxLineBytes() + " bytes a line of "
                            + kind.what() + " may hold");
                    }
                }
                total += chunk.position();
                if (total > kind.maxBytes()) {
                    throw tooLarge(file, kind, total);
                }
                whole.write(chunk.array(), 0, chunk.position());
            }
            return decode(file, whole.toByteArray());
        } catch (final IOException e) {
            throw refusal(file, e);
        }
    }

    /** The bytes of {@code file}, checked as {@link #open} does. */
    public static byte[] bytes(final Path file, final Kind kind) {
        try (FileChannel channel = open(file, kind)) {
            final long size = channel.size();
            final ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(size + 1, kind.maxBytes() + 1));
            while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
                // A file that grew since it was measured is read no further than its limit allows.
            }
            if (buffer.position() > kind.maxBytes()) {
                throw tooLarge(file, kind, buffer.position());
            }
            final byte[] bytes = new byte[buffer.position()];
            buffer.flip().get(bytes);
            return bytes;
        } catch (final IOException e) {
            throw refusal(file, e);
        }
    }

    /**
     * {@code file} opened for reading: a regular file of at most {@code kind}'s size, reached through no symbolic link
     * that a user other than root or this process's own could have placed (one they own, or one in a directory others may
     * write that is not sticky).
     */
    public static FileChannel open(final Path file, final Kind kind) {
        final Path real = checkedPath(file);
        try {
            final BasicFileAttributes before = Files.readAttributes(real, BasicFileAttributes.class, NO_FOLLOW);
            refuseIrregular(file, kind, before);
            final FileChannel channel = FileChannel.open(real, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
            try {
                // Swapped for something else between the check and the open: refused, not read.
                final BasicFileAttributes after = Files.readAttributes(real, BasicFileAttributes.class, NO_FOLLOW);
                if (!after.isRegularFile() || before.fileKey() != null && !before.fileKey().equals(after.fileKey())) {
                    throw new Refused(file + ": changed while it was being opened");
                }
                if (channel.size() > kind.maxBytes()) {
                    throw tooLarge(file, kind, channel.size());
                }
                return channel;
            } catch (final IOException | RuntimeException e) {
                channel.close();
                throw e;
            }
        } catch (final IOException e) {
            throw refusal(file, e);
        }
    }

    private static void refuseIrregular(final Path file, final Kind kind, final BasicFileAttributes attributes) {
        if (attributes.isDirectory()) {
            throw new Refused(file + ": a directory, not " + kind.what());
        }
        if (!attributes.isRegularFile()) {
            throw new Refused(file + ": not a regular file (a device or a FIFO is never read)");
        }
        if (attributes.size() > kind.maxBytes()) {
            throw tooLarge(file, kind, attributes.size());
        }
    }

    private static Refused tooLarge(final Path file, final Kind kind, final long size) {
        return new Refused(file + ": " + size + " bytes, over the " + kind.maxBytes() + " (" + mebibytes(kind.maxBytes()) + ") "
            + kind.what() + " may hold");
    }

    private static String mebibytes(final long bytes) {
        return bytes >= (1L << 30) - 1 ? (bytes + 1) / (1L << 30) + " GiB" : bytes / (1L << 20) + " MiB";
    }

    /** The path with every symbolic link on it followed, each one checked; refused when one is unsafe. */
    static Path checkedPath(final Path file) {
        try {
            return follow(file.toAbsolutePath(), file, 0);
        } catch (final IOException e) {
            throw refusal(file, e);
        }
    }

    private static Path follow(final Path absolute, final Path given, final int depth) throws IOException {
        if (depth > MOST_LINKS) {
            throw new Refused(given + ": too many symbolic links");
        }
        Path at = absolute.getRoot();
        for (final Path name : absolute) {
            if (name.toString().equals("..")) {
                at = at.getParent() == null ? at : at.getParent();
                continue;
            }
            if (name.toString().equals(".")) {
                continue;
            }
            final Path next = at.resolve(name);
            final Map<String, Object> attributes = Files.readAttributes(next, "unix:uid,isSymbolicLink", NO_FOLLOW);
            if (!(Boolean) attributes.get("isSymbolicLink")) {
                at = next;
                continue;
            }
            final int owner = (Integer) attributes.get("uid");
            final int self = PrivateFiles.processUid();
            if (owner != 0 && owner != self) {
                throw new Refused(given + ": reached through " + next + ", a symbolic link of user " + owner
                    + "; only root's and this user's own links are followed");
            }
            final int folderMode = (Integer) Files.getAttribute(at, "unix:mode", NO_FOLLOW);
            if ((folderMode & OTHERS_WRITE) != 0 && (folderMode & STICKY) == 0) {
                throw new Refused(given + ": reached through " + next + ", a symbolic link in " + at
                    + ", which others may write; links there are never followed");
            }
            at = follow(at.resolve(Files.readSymbolicLink(next)), given, depth + 1);
        }
        return at;
    }

    private static String decode(final Path file, final byte[] bytes) {
        final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        final ByteBuffer in = ByteBuffer.wrap(bytes);
        try {
            return decoder.decode(in).toString();
        } catch (final CharacterCodingException e) {
            // Find where: decode again step by step to the first bad byte.
            final java.nio.CharBuffer out = java.nio.CharBuffer.allocate(bytes.length);
            in.rewind();
            final CoderResult result = decoder.reset().decode(in, out, true);
            final int at = result.isError() ? in.position() : 0;
            int line = 1;
            for (int i = 0; i < at; i++) {
                line += bytes[i] == '\n' ? 1 : 0;
            }
            throw new Refused(file + ": not text: byte 0x" + String.format("%02x", bytes[at] & 0xff) + " at line " + line);
        }
    }

    private static Refused refusal(final Path file, final IOException e) {
        if (e instanceof NoSuchFileException) {
            return new Refused(file + ": no such file");
        }
        if (e instanceof AccessDeniedException) {
            return new Refused(file + ": permission denied");
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return new Refused(file + ": cannot read: " + f.getReason());
        }
        return new Refused(file + ": cannot read: " + e.getMessage());
    }
}
