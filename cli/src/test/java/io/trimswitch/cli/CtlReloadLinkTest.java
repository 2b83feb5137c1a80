package io.trimswitch.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ctl reload} where the settings file's folder is shared with the control group: a member who puts a link to a
 * root-only file in the settings file's place gets neither the file read nor a line of it back.
 */
class CtlReloadLinkTest {
    @TempDir
    Path dir;

    @Test
    void aReloadThroughALinkPlacedInASharedFolderIsRefusedWithoutQuotingItsTarget() throws Exception {
        final Path shared = Files.createDirectory(dir.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwx---"));
        final Path config = shared.resolve("sw.yaml");
        Files.writeString(config, "ports:\n  - {bind: 127.0.0.1:0, remote: 127.0.0.1:9}\nmetrics:\n  address: null\n");
        final Path socket = dir.resolve("s.ctl");
        final CompletableFuture<Cli.Result> running = CompletableFuture.supplyAsync(() -> Cli.trimswitch("run", "--config", config.toString(),
            "--counters", dir.resolve("s.counters").toString(), "--control", socket.toString(), "--duration-s", "120"));
        try {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!Files.exists(socket) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(Files.exists(socket), "host too slow: no control socket in 60 s");
            final Path secret = Files.createFile(dir.resolve("shadow"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(secret, "root:*:20228:0:99999:7::\n");
            Files.delete(config);
            Files.createSymbolicLink(config, secret);
            final Cli.Result reload = Cli.trimswitch("ctl", "--socket", socket.toString(), "reload");
            assertEquals(2, reload.exit(), reload.out() + reload.err());
            assertEquals("trimswitch: reload: " + config + ": reached through " + config + ", a symbolic link in " + config.getParent()
                + ", which others may write; links there are never followed; nothing was changed\n", reload.err());
            assertFalse((reload.out() + reload.err()).contains("root:*"));
        } finally {
            Cli.trimswitch("ctl", "--socket", socket.toString(), "stop");
            running.get(60, TimeUnit.SECONDS);
        }
    }
}
