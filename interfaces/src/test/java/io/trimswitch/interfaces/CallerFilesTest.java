package io.trimswitch.interfaces;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A capture's file as the switch (root) opens it for a member of its control group who is not root: only where that
 * user could write, never through a symbolic link, never a FIFO or a device, never over a file without being asked.
 */
class CallerFilesTest {
    @TempDir
    Path dir;

    private CallerFiles.Caller nobody;
    private Path rootOnly;
    private Path users;

    @BeforeEach
    void directories() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root, to open as another user");
        nobody = new CallerFiles.Caller(CallerFiles.userId("nobody"), CallerFiles.groupId("nogroup"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        rootOnly = Files.createDirectory(dir.resolve("root-only"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        users = Files.createDirectory(dir.resolve("nobodys"));
        final UserPrincipal owner = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        Files.setOwner(users, owner);
    }

    @Test
    void aUserMakesANewFileOnlyWhereTheyMayWriteOwnedByThemMode0600() throws Exception {
        final Path made = users.resolve("cap.pcapng");
        try (FileChannel channel = CallerFiles.create(made, nobody, false)) {
            channel.write(ByteBuffer.wrap("frames".getBytes(StandardCharsets.US_ASCII)));
        }
        final PosixFileAttributes attributes = Files.readAttributes(made, PosixFileAttributes.class);
        assertEquals("nobody", attributes.owner().getName());
        assertEquals("rw-------", PosixFilePermissions.toString(attributes.permissions()));
        assertEquals("frames", Files.readString(made));
        assertRefused(dir.resolve("x.pcapng"), false, dir.resolve("x.pcapng") + ": permission denied for user " + nobody.uid());
        assertRefused(rootOnly.resolve("x.pcapng"), false, rootOnly.resolve("x.pcapng") + ": permission denied for user " + nobody.uid());
        assertFalse(Files.exists(dir.resolve("x.pcapng")));
    }

    @Test
    void aRootFileIsNeitherReplacedNorTruncatedForAUser() throws Exception {
        final Path secret = Files.writeString(dir.resolve("shadow"), "root's");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        assertRefused(secret, false, secret + ": exists; pick a new name, or add --overwrite to replace it");
        assertRefused(secret, true, secret + ": permission denied for user " + nobody.uid());
        assertEquals("root's", Files.readString(secret));
    }

    @Test
    void aSymbolicLinkIsNeverFollowedNotEvenForRoot() throws Exception {
        final Path target = Files.writeString(dir.resolve("target"), "kept");
        final Path link = Files.createSymbolicLink(users.resolve("link.pcapng"), target);
        assertRefused(link, true, link + ": is a symbolic link; a capture is never written through one");
        final CallerFiles.Refused root = assertThrows(CallerFiles.Refused.class, () -> CallerFiles.create(link, CallerFiles.Caller.ROOT, true));
        assertEquals(link + ": is a symbolic link; a capture is never written through one", root.getMessage());
        assertEquals("kept", Files.readString(target));
        assertTrue(Files.isSymbolicLink(link));
    }

    @Test
    void aFifoOrADeviceIsRefusedAtOnce() throws Exception {
        final Path fifo = users.resolve("fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        Files.setOwner(fifo, Files.getOwner(users));
        final long started = System.nanoTime();
        assertRefused(fifo, true, fifo + ": not a regular file (a FIFO no one reads?)");
        assertTrue(System.nanoTime() - started < 2_000_000_000L, "it never blocks");
        final CallerFiles.Refused device = assertThrows(CallerFiles.Refused.class, () -> CallerFiles.create(Path.of("/dev/zero"), CallerFiles.Caller.ROOT, true));
        assertEquals("/dev/zero: not a regular file", device.getMessage());
        assertTrue(Files.exists(fifo, LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void theUsersOwnFileIsReplacedOnlyWhenAsked() throws Exception {
        final Path own = users.resolve("old.pcapng");
        try (FileChannel channel = CallerFiles.create(own, nobody, false)) {
            channel.write(ByteBuffer.wrap("old frames".getBytes(StandardCharsets.US_ASCII)));
        }
        assertRefused(own, false, own + ": exists; pick a new name, or add --overwrite to replace it");
        try (FileChannel channel = CallerFiles.create(own, nobody, true)) {
            channel.write(ByteBuffer.wrap("new".getBytes(StandardCharsets.US_ASCII)));
        }
        assertEquals("new", Files.readString(own));
    }

    private void assertRefused(final Path file, final boolean overwrite, final String message) {
        final CallerFiles.Refused refused = assertThrows(CallerFiles.Refused.class, () -> CallerFiles.create(file, nobody, overwrite));
        assertEquals(message, refused.getMessage());
    }
}
