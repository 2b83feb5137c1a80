package io.trimswitch.interfaces;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The interfaces' lock files under RUN/NETNS: a stopped switch leaves neither its locks nor an empty NETNS directory. */
class InterfaceLocksTest {
    @TempDir
    Path run;

    @Test
    void aStoppedSwitchRemovesItsNamespacesDirectoryOnceEmpty() throws Exception {
        final Path namespace = run.resolve(InterfaceLocks.networkNamespace());
        final InterfaceLocks first = InterfaceLocks.acquire(run, List.of("tsw-a0"));
        final InterfaceLocks second = InterfaceLocks.acquire(run, List.of("tsw-b0"));
        assertTrue(Files.exists(namespace.resolve("tsw-a0.lock")) && Files.exists(namespace.resolve("tsw-b0.lock")));
        first.close();
        assertEquals(List.of(namespace.resolve("tsw-b0.lock")), list(namespace), "the other switch's lock stays, and its directory");
        second.close();
        assertFalse(Files.exists(namespace), "the last switch to stop removes the empty directory");
        assertTrue(Files.isDirectory(run), "the run directory itself stays");
    }

    @Test
    void aRefusedStartLeavesNoEmptyDirectory() {
        assertThrows(IllegalStateException.class, () -> InterfaceLocks.acquire(run, List.of("..")));
        assertEquals(List.of(), list(run));
    }

    @Test
    void aSymbolicLinkPutInTheDirectorysPlaceIsNotFollowed() throws Exception {
        final Path namespace = run.resolve(InterfaceLocks.networkNamespace());
        final InterfaceLocks locks = InterfaceLocks.acquire(run, List.of("tsw-c0"));
        final Path elsewhere = Files.createDirectory(run.resolve("elsewhere"));
        Files.move(namespace, run.resolve("moved"));
        Files.createSymbolicLink(namespace, elsewhere);
        locks.close();
        assertTrue(Files.isSymbolicLink(namespace) && Files.isDirectory(elsewhere), "neither the link nor the empty directory it names is removed");
    }

    private static List<Path> list(final Path dir) {
        try (var files = Files.list(dir)) {
            return files.sorted().toList();
        } catch (final java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
