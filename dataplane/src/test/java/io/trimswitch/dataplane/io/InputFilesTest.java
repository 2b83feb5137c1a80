package io.trimswitch.dataplane.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class InputFilesTest {
    @TempDir
    Path dir;

    private static String refusal(final Path file, final InputFiles.Kind kind) {
        return assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertThrows(InputFiles.Refused.class, () -> InputFiles.text(file, kind)))
            .getMessage();
    }

    private static void run(final String... command) throws Exception {
        assertEquals(0, new ProcessBuilder(command).inheritIO().start().waitFor(), String.join(" ", command));
    }

    @Test
    void aDeviceAFifoOrADirectoryIsRefusedAtOnceWithoutBeingOpened() throws Exception {
        final Path fifo = dir.resolve("fifo");
        run("mkfifo", fifo.toString());
        assertEquals("/dev/zero: not a regular file (a device or a FIFO is never read)", refusal(Path.of("/dev/zero"), InputFiles.HTSIM));
        assertEquals(fifo + ": not a regular file (a device or a FIFO is never read)", refusal(fifo, InputFiles.HTSIM));
        assertEquals(dir + ": a directory, not a settings file", refusal(dir, InputFiles.SETTINGS));
        assertEquals(dir.resolve("none") + ": no such file", refusal(dir.resolve("none"), InputFiles.SETTINGS));
    }

    @Test
    void aFileOverItsKindsLimitIsRefusedNamingTheFileAndTheLimit() throws IOException {
        final Path huge = dir.resolve("huge.yaml");
        try (RandomAccessFile file = new RandomAccessFile(huge.toFile(), "rw")) {
            file.setLength(InputFiles.SETTINGS.maxBytes() + 1);
        }
        assertEquals(huge + ": 1048577 bytes, over the 1048576 (1 MiB) a settings file may hold", refusal(huge, InputFiles.SETTINGS));
    }

    @Test
    void aLineLongerThanItsKindAllowsIsRefusedInAShortLine() throws IOException {
        final Path oneLine = dir.resolve("one-line.cm");
        Files.writeString(oneLine, "Nodes 8\n" + "x".repeat(5_000_000));
        final String message = refusal(oneLine, InputFiles.HTSIM);
        assertEquals(oneLine + " line 2: longer than the 65536 bytes a line of an htsim file may hold", message);
    }

    @Test
    void bytesThatAreNotUtf8AreNamedWithTheirLine() throws IOException {
        final Path binary = dir.resolve("binary.cm");
        Files.write(binary, new byte[] {'N', 'o', 'd', 'e', 's', '\n', '8', '\n', 'a', (byte) 0xff, (byte) 0xfe});
        assertEquals(binary + ": not text: byte 0xff at line 3", refusal(binary, InputFiles.HTSIM));
    }

    @Test
    void aTokenQuotedFromAFileIsCutToEightyCharacters() {
        assertEquals("'short'", InputFiles.quoted("short"));
        assertEquals("'" + "x".repeat(80) + "…'", InputFiles.quoted("x".repeat(50_000)));
    }

    @Test
    void aLinkOfOurOwnInAPrivateOrStickyFolderIsFollowed() throws Exception {
        final Path target = dir.resolve("settings.yaml");
        Files.writeString(target, "pipelines: 2\n");
        final Path own = Files.createSymbolicLink(dir.resolve("own.yaml"), target);
        assertEquals("pipelines: 2\n", InputFiles.text(own, InputFiles.SETTINGS));
        final Path sticky = Files.createDirectory(dir.resolve("sticky"));
        run("chmod", "1777", sticky.toString());
        final Path inSticky = Files.createSymbolicLink(sticky.resolve("link.yaml"), target);
        assertEquals("pipelines: 2\n", InputFiles.text(inSticky, InputFiles.SETTINGS));
        // A link to a folder, then a relative link inside it: each one checked, the file read.
        final Path folderLink = Files.createSymbolicLink(dir.resolve("folder"), sticky);
        assertEquals("pipelines: 2\n", InputFiles.text(folderLink.resolve("link.yaml"), InputFiles.SETTINGS));
    }

    @Test
    void aLinkInAFolderOthersMayWriteWithoutTheStickyBitIsNotFollowed() throws Exception {
        final Path target = dir.resolve("settings.yaml");
        Files.writeString(target, "pipelines: 2\n");
        final Path open = Files.createDirectory(dir.resolve("open"));
        run("chmod", "0777", open.toString());
        final Path link = Files.createSymbolicLink(open.resolve("link.yaml"), target);
        assertEquals(link + ": reached through " + link + ", a symbolic link in " + open + ", which others may write; links there are never followed",
            refusal(link, InputFiles.SETTINGS));
        // Through a folder link that sits there, too.
        final Path inside = Files.createDirectory(dir.resolve("inside"));
        Files.createSymbolicLink(open.resolve("via"), inside);
        Files.writeString(inside.resolve("s.yaml"), "x: 1\n");
        assertTrue(refusal(open.resolve("via").resolve("s.yaml"), InputFiles.SETTINGS).contains("a symbolic link in " + open));
    }

    @Test
    void aLinkAnotherUserOwnsIsNotFollowedEvenInAPrivateFolder() throws Exception {
        assumeTrue(PrivateFiles.processUid() == 0, "giving a link to another user takes root");
        final Path target = dir.resolve("secret");
        Files.writeString(target, "root only\n", StandardCharsets.UTF_8);
        final Path link = Files.createSymbolicLink(dir.resolve("sw.yaml"), target);
        Files.getFileAttributeView(link, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
            .setOwner(link.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("65534"));
        assertEquals(link + ": reached through " + link + ", a symbolic link of user 65534; only root's and this user's own links are followed",
            refusal(link, InputFiles.SETTINGS));
    }
}
