package io.trimswitch.live.capture;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A capture of a running switch's port whose file is a pipe that its reader stopped reading (a paused Wireshark). */
class LiveCaptureTest {
    @TempDir
    Path dir;

    @Test
    void aCaptureIntoAPipeNoOneReadsStopsWithinItsBoundAndLeavesNoThread() throws Exception {
        final Path fifo = dir.resolve("capture.pcapng");
        assertTrue(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0, "mkfifo");
        // The reader opens the pipe and never reads: a pipe holds 64 KiB, then every write blocks.
        final CompletableFuture<FileChannel> reader = CompletableFuture.supplyAsync(() -> {
            try {
                return FileChannel.open(fifo, StandardOpenOption.READ);
            } catch (final java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        // Opened here, as a capture's caller opens what it names: the switch itself never opens a FIFO by name.
        final FileChannel pipe = FileChannel.open(fifo, StandardOpenOption.WRITE);
        final LiveCapture capture = new LiveCapture(0, fifo, pipe, 10_000_000_000L, 0);
        try (FileChannel unread = reader.get(5, TimeUnit.SECONDS)) {
            final UnsafeBuffer frame = new UnsafeBuffer(new byte[1500]);
            for (int i = 0; i < 4_000; i++) {
                // As the port's thread does, into the capture's ring; its writer is left with 6 MB for a full pipe.
                capture.received(i * 1_000_000L, frame, 0, frame.capacity());
            }
            assertTimeoutPreemptively(Duration.ofSeconds(10), capture::close, "closing the capture is bounded");
            assertTrue(capture.failure() != null && capture.failure().startsWith("its writer was blocked at the stop"), capture.failure());
            assertTrue(capture.written() + capture.lost() + capture.dropped() == 4_000,
                "every frame is written, lost or dropped: " + capture.written() + " " + capture.lost() + " " + capture.dropped());
            assertFalse(Thread.getAllStackTraces().keySet().stream().anyMatch(thread -> thread.getName().equals("trimswitch-capture-0")),
                "the capture's writer has ended");
        }
    }

    @Test
    void aCaptureOnADiskWithNoRoomCountsEveryFrameItLost() throws Exception {
        final FileChannel full = FileChannel.open(Path.of("/dev/full"), StandardOpenOption.WRITE);
        final LiveCapture capture = new LiveCapture(0, Path.of("/dev/full"), full, 10_000_000_000L, 0);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[1500]);
        for (int i = 0; i < 40; i++) {
            capture.received(i * 1_000_000L, frame, 0, frame.capacity());
        }
        capture.close();
        assertTrue(capture.failure() != null && capture.failure().contains("No space left on device"), capture.failure());
        assertTrue(capture.written() == 0 && capture.lost() + capture.dropped() == 40,
            "none reached the file, and every one is counted: " + capture.written() + " written, " + capture.lost() + " lost, " + capture.dropped() + " dropped");
    }
}
