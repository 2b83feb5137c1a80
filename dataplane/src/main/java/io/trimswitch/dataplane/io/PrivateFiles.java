package io.trimswitch.dataplane.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.util.Set;

/**
 * The files a running switch makes (counters, locks, its control socket) and the directories they live in: each made
 * with an explicit mode whatever the umask, never through a symbolic link, and only in a directory that root (or the
 * switch's own user) owns and no one else can write, every directory above it safe too. Anything else is refused in
 * one line ({@link IllegalStateException}): a file another user could swap, plant or lock is never trusted.
 */
public final class PrivateFiles {
    /** Owner only. */
    public static final String OWNER_FILE = "rw-------";
    public static final String OWNER_DIRECTORY = "rwx------";
    /** The run directory: anyone may pass through to a name they know (the control socket), no one but its owner may list it or write it. */
    public static final String PASS_THROUGH_DIRECTORY = "rwx--x--x";
    private static final int GROUP_OR_OTHER_WRITE = 0022;
    private static final int STICKY = 01000;
    private static final LinkOption[] NO_FOLLOW = {LinkOption.NOFOLLOW_LINKS};

    private PrivateFiles() {
    }

    /** This process's user id, as the kernel sees it. */
    public static int processUid() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (final IOException | RuntimeException e) {
            return "root".equals(System.getProperty("user.name")) ? 0 : -1;
        }
    }

    /**
     * Makes {@code dir} with {@code mode} if it is missing (its parent must exist), then checks it as
     * {@link #checkDirectory} does.
     */
    public static void directory(final Path dir, final String mode) {
        final Path absolute = dir.toAbsolutePath();
        if (!Files.exists(absolute, NO_FOLLOW)) {
            try {
                Files.createDirectory(absolute, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(mode)));
                // The umask only takes bits away; set exactly what was asked.
                Files.getFileAttributeView(absolute, PosixFileAttributeView.class, NO_FOLLOW).setPermissions(PosixFilePermissions.fromString(mode));
            } catch (final FileAlreadyExistsException e) {
                // Made meanwhile by another switch: checked below like any other.
            } catch (final NoSuchFileException e) {
                throw new IllegalStateException("directory " + absolute.getParent() + " does not exist");
            } catch (final java.nio.file.AccessDeniedException e) {
                throw new IllegalStateException("directory " + absolute + ": permission denied (it needs root)");
            } catch (final IOException e) {
                throw new IllegalStateException("directory " + absolute + ": cannot make it: " + e.getMessage());
            }
        }
        checkDirectory(absolute);
    }

    /**
     * Checks that {@code dir} is a directory (not a symbolic link) owned by root or this process's user that no one else
     * may write, and that every directory above it is owned by them too and writable by no one else, or sticky (/tmp).
     *
     * @throws IllegalStateException in one line naming the directory and what is wrong with it
     */
    public static void checkDirectory(final Path dir) {
        final Path absolute = dir.toAbsolutePath().normalize();
        final int uid = processUid();
        try {
            final java.util.Map<String, Object> own = Files.readAttributes(absolute, "unix:uid,mode,isDirectory,isSymbolicLink", NO_FOLLOW);
            if ((Boolean) own.get("isSymbolicLink")) {
                throw new IllegalStateException("directory " + absolute + " is a symbolic link; the switch's files live in a real directory");
            }
            if (!(Boolean) own.get("isDirectory")) {
                throw new IllegalStateException(absolute + " is not a directory");
            }
            refuseUnsafe(absolute, (Integer) own.get("uid"), (Integer) own.get("mode"), uid, false);
            for (Path above = absolute.getParent() == null ? null : absolute.getParent().toRealPath(); above != null; above = above.getParent()) {
                final java.util.Map<String, Object> attributes = Files.readAttributes(above, "unix:uid,mode", NO_FOLLOW);
                refuseUnsafe(above, (Integer) attributes.get("uid"), (Integer) attributes.get("mode"), uid, true);
            }
        } catch (final NoSuchFileException e) {
            throw new IllegalStateException("directory " + absolute + " does not exist");
        } catch (final IOException e) {
            throw new IllegalStateException("directory " + absolute + ": cannot check it: " + e.getMessage());
        }
    }

    private static void refuseUnsafe(final Path dir, final int owner, final int mode, final int uid, final boolean stickyAllowed) {
        if (owner != 0 && owner != uid) {
            throw new IllegalStateException("directory " + dir + " belongs to user " + owner + ", not root: the switch keeps its files only where no one else can change them");
        }
        if ((mode & GROUP_OR_OTHER_WRITE) != 0 && !(stickyAllowed && (mode & STICKY) != 0)) {
            throw new IllegalStateException("directory " + dir + " is writable by others (mode " + String.format("%04o", mode & 07777)
                + "): the switch keeps its files only where no one else can change them");
        }
    }

    /**
     * Makes {@code file} anew (never through a symbolic link) with exactly {@code mode}, its group {@code group} when not
     * null, and opens it for reading and writing.
     */
    public static FileChannel createNew(final Path file, final String mode, final String group) throws IOException {
        final Set<PosixFilePermission> permissions = PosixFilePermissions.fromString(mode);
        final Set<OpenOption> options = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE,
            LinkOption.NOFOLLOW_LINKS);
        final FileChannel channel = FileChannel.open(file, options, PosixFilePermissions.asFileAttribute(permissions));
        try {
            final PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class, NO_FOLLOW);
            if (group != null) {
                view.setGroup(group(file, group));
            }
            view.setPermissions(permissions);
            return channel;
        } catch (final IOException | RuntimeException e) {
            channel.close();
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /** The group {@code name}; refused in one line when there is none. */
    public static GroupPrincipal group(final Path anyFile, final String name) {
        try {
            return anyFile.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByGroupName(name);
        } catch (final UserPrincipalNotFoundException e) {
            throw new IllegalStateException("metrics.controlGroup: no group named '" + name + "'");
        } catch (final IOException e) {
            throw new IllegalStateException("metrics.controlGroup: cannot look up group '" + name + "': " + e.getMessage());
        }
    }
}
