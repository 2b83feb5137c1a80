package io.trimswitch.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Twenty {@code trimswitch ctl show} started at once, each a JVM of its own, on a host kept busy: every one is answered. */
@Tag("host-timing")
class CtlUnderLoadTest {
    private static final int CLIENTS = 20;

    @TempDir
    Path dir;

    @Test
    void twentyCtlProcessesAtOnceOnABusyHostAllShowTheSwitch() throws Exception {
        final Path config = dir.resolve("switch.yaml");
        Files.writeString(config, "ports:\n  - {bind: 127.0.0.1:0, remote: 127.0.0.1:9}\nmetrics:\n  address: null\n");
        final Path socket = dir.resolve("s.ctl");
        final CompletableFuture<Cli.Result> running = CompletableFuture.supplyAsync(() -> Cli.trimswitch("run", "--config", config.toString(),
            "--counters", dir.resolve("s.counters").toString(), "--control", socket.toString(), "--duration-s", "600"));
        final AtomicBoolean busy = new AtomicBoolean(true);
        final List<Thread> load = new ArrayList<>();
        final List<Process> clients = new ArrayList<>();
        try {
            final long started = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!Files.exists(socket) && System.nanoTime() < started) {
                Thread.sleep(20);
            }
            assertTrue(Files.exists(socket), "host too slow: the switch made no control socket in 60 s");
            // Runnable threads beside the twenty JVMs starting: a load of ten or more on a small host.
            for (int i = 0; i < 8; i++) {
                load.add(Thread.ofPlatform().daemon().start(() -> {
                    while (busy.get()) {
                        Thread.onSpinWait();
                    }
                }));
            }
            for (int i = 0; i < CLIENTS; i++) {
                clients.add(ToolProcess.start(dir.resolve("ctl-" + i + ".log"), "ctl", "--socket", socket.toString(), "show"));
            }
            for (int i = 0; i < CLIENTS; i++) {
                assertTrue(clients.get(i).waitFor(300, TimeUnit.SECONDS), "host too slow: ctl " + i + " still starting after 300 s");
                final String said = Files.readString(dir.resolve("ctl-" + i + ".log"));
                assertEquals(0, clients.get(i).exitValue(), "ctl " + i + ": " + said);
                assertTrue(said.contains("port  kind"), said);
            }
        } finally {
            busy.set(false);
            clients.forEach(Process::destroyForcibly);
            for (final Thread thread : load) {
                thread.join();
            }
            Cli.trimswitch("ctl", "--socket", socket.toString(), "stop");
            running.get(60, TimeUnit.SECONDS);
        }
    }
}
