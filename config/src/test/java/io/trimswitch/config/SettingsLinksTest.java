package io.trimswitch.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A settings file named through a symbolic link: followed where only its owner could have placed the link, refused
 * (and the file it names left unread) where another user could have.
 */
class SettingsLinksTest {
    private static final String SECRET = "root:*:20228:0:99999:7::\n";

    @TempDir
    Path dir;

    /** A file only its owner may read, as /etc/shadow is. */
    private Path ownerOnly() throws Exception {
        final Path secret = Files.createFile(dir.resolve("secret"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(secret, SECRET);
        return secret;
    }

    @Test
    void aLinkInAFolderOthersMayWriteIsNotFollowedNorItsTargetQuoted() throws Exception {
        final Path shared = Files.createDirectory(dir.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwx---"));
        final Path link = Files.createSymbolicLink(shared.resolve("sw.yaml"), ownerOnly());
        final ConfigException refused = assertThrows(ConfigException.class, () -> SettingsFiles.load(link));
        assertEquals(link + ": reached through " + link + ", a symbolic link in " + shared + ", which others may write; links there are"
            + " never followed", refused.getMessage());
        assertFalse(refused.getMessage().contains("root:*"));
    }

    @Test
    void aFolderLinkInAFolderOthersMayWriteIsNotFollowedEither() throws Exception {
        final Path shared = Files.createDirectory(dir.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        ownerOnly();
        final Path folder = Files.createSymbolicLink(shared.resolve("etc"), dir);
        final ConfigException refused = assertThrows(ConfigException.class, () -> SettingsFiles.load(folder.resolve("secret")));
        assertTrue(refused.getMessage().contains("reached through " + folder + ", a symbolic link in " + shared + ", which others may write"), refused.getMessage());
    }

    @Test
    void aLinkAnotherUserOwnsIsNotFollowedEvenInASafeFolder() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "only root can give a link to another user");
        final Path link = Files.createSymbolicLink(dir.resolve("sw.yaml"), ownerOnly());
        Files.getFileAttributeView(link, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
            .setOwner(link.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
        final ConfigException refused = assertThrows(ConfigException.class, () -> SettingsFiles.load(link));
        assertTrue(refused.getMessage().contains(", a symbolic link of user "), refused.getMessage());
        assertFalse(refused.getMessage().contains("root:*"));
    }

    @Test
    void aLinkItsOwnerMadeWhereOnlyTheyWriteIsFollowed() throws Exception {
        final Path real = dir.resolve("real.yaml");
        Files.writeString(real, "trim:\n  dscp: 12\n");
        final Path link = Files.createSymbolicLink(dir.resolve("sw.yaml"), real);
        assertEquals(12, SettingsFiles.load(link).trim().dscp());
    }

    @Test
    void aTokenQuotedInARefusalIsCutToEightyCharacters() throws Exception {
        final Path file = dir.resolve("long.yaml");
        Files.writeString(file, "k".repeat(1000) + ": 1\n");
        final ConfigException refused = assertThrows(ConfigException.class, () -> SettingsFiles.load(file));
        assertTrue(refused.getMessage().contains("unknown key '" + "k".repeat(80) + "…'"), refused.getMessage());
        assertFalse(refused.getMessage().contains("k".repeat(81)));
        Files.writeString(file, "trim:\n  dscp: " + "v".repeat(500) + "\n");
        final ConfigException value = assertThrows(ConfigException.class, () -> SettingsFiles.load(file));
        assertTrue(value.getMessage().endsWith("expected a whole number, got " + "v".repeat(80) + "…"), value.getMessage());
    }
}
