package io.trimswitch.sockets;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * The metrics endpoint as a hostile or broken client meets it: resets, silence, trickles, floods of connections. What
 * it holds (descriptors, heap, connections) stays flat, it logs a line per kind of event, and a scraper is answered.
 */
@Tag("host-timing")
class MetricsEndpointFaultsTest {
    private static final String SCRAPE = "GET /metrics HTTP/1.1\r\nHost: switch\r\n\r\n";
    /** Descriptors and heap the endpoint may gain across a whole test: a constant, whatever the number of clients. */
    private static final int FD_SLACK = 16;
    private static final long HEAP_SLACK_BYTES = 8L << 20;

    private final List<String> logged = new CopyOnWriteArrayList<>();
    private MetricsEndpoint endpoint;

    @AfterEach
    void close() {
        if (endpoint != null) {
            endpoint.close();
        }
    }

    /** About the size of a 64-port switch's scrape: some 30 KB of text. */
    private static MetricSnapshots snapshot() {
        final CounterSnapshot.Builder counter = CounterSnapshot.builder().name("trimswitch_port_rx_packets").help("frames");
        for (int port = 0; port < 600; port++) {
            counter.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(Labels.of("port", Integer.toString(port)))
                .value(port * 1_000_003L).build());
        }
        return new MetricSnapshots(counter.build());
    }

    private void start() throws IOException {
        endpoint = new MetricsEndpoint(new InetSocketAddress("127.0.0.1", 0), MetricsEndpointFaultsTest::snapshot, logged::add);
    }

    @Test
    void tenThousandScrapesEndedByAResetLeaveNoDescriptorNorHeapBehindAndOneLogLine() throws Exception {
        start();
        scrape();
        final long fds = openDescriptors();
        final long heap = usedHeapAfterGc();
        for (int i = 0; i < 10_000; i++) {
            try (Socket socket = new Socket("127.0.0.1", endpoint.port())) {
                socket.getOutputStream().write(SCRAPE.getBytes(StandardCharsets.US_ASCII));
                socket.setSoLinger(true, 0);
            }
        }
        final int left = openConnectionsOnceAtMost(0, Duration.ofSeconds(20));
        if (left > 0) {
            abort("host too slow: the endpoint saw every reset within 20 s; " + left + " still open");
        }
        final long heapAfter = usedHeapAfterGc();
        final long fdsAfter = openDescriptors();
        System.out.printf("10000 reset scrapes: descriptors %d -> %d, heap after GC %d -> %d KB%n", fds, fdsAfter, heap >> 10, heapAfter >> 10);
        assertTrue(fdsAfter - fds <= FD_SLACK, "descriptors " + fds + " -> " + fdsAfter);
        assertTrue(heapAfter - heap <= HEAP_SLACK_BYTES, "heap " + heap + " -> " + heapAfter);
        assertTrue(logged.size() <= 3, "at most a line per kind of event: " + logged);
        assertScrapeAnsweredQuickly();
    }

    @Test
    void twoThousandSilentConnectionsHoldAtMostTheCapAndAScrapeIsStillAnswered() throws Exception {
        start();
        final long fds = openDescriptors();
        final List<Socket> silent = new ArrayList<>();
        try {
            for (int i = 0; i < 2_000; i++) {
                silent.add(new Socket("127.0.0.1", endpoint.port()));
            }
            openConnectionsOnceAtMost(MetricsEndpoint.MAX_CONNECTIONS, Duration.ofSeconds(5));
            assertTrue(endpoint.openConnections() <= MetricsEndpoint.MAX_CONNECTIONS, "held: " + endpoint.openConnections());
            // The test's own 2,000 sockets are in this process too.
            final long held = openDescriptors() - silent.size() - fds;
            assertTrue(held <= MetricsEndpoint.MAX_CONNECTIONS + FD_SLACK, "descriptors the endpoint holds: " + held);
            assertScrapeAnsweredQuickly();
        } finally {
            for (final Socket socket : silent) {
                socket.close();
            }
        }
    }

    @Test
    void aClientThatTricklesItsRequestIsClosedAtTheDeadline() throws Exception {
        start();
        try (Socket slow = new Socket("127.0.0.1", endpoint.port())) {
            slow.setSoTimeout((int) MetricsEndpoint.REQUEST_DEADLINE_MS + 3_000);
            final OutputStream out = slow.getOutputStream();
            final long started = System.nanoTime();
            int read = 0;
            for (int i = 0; i < 20 && read >= 0; i++) {
                try {
                    out.write('G');
                    out.flush();
                } catch (final IOException closed) {
                    break;
                }
                Thread.sleep(400);
            }
            final InputStream in = slow.getInputStream();
            try {
                read = in.read();
            } catch (final IOException reset) {
                read = -1;
            }
            assertEquals(-1, read, "the connection is closed");
            final long heldMs = (System.nanoTime() - started) / 1_000_000;
            assertTrue(heldMs < MetricsEndpoint.REQUEST_DEADLINE_MS + 3_000, "closed after " + heldMs + " ms");
        }
        assertScrapeAnsweredQuickly();
    }

    @Test
    void garbageAndOversizedRequestsAreRefusedAndTheConnectionClosed() throws Exception {
        start();
        assertEquals("HTTP/1.1 400", status("NOT HTTP AT ALL\r\n\r\n").substring(0, 12));
        assertEquals("HTTP/1.1 404", status("GET /secret HTTP/1.1\r\nHost: x\r\n\r\n").substring(0, 12));
        final String longLine = "GET /" + "a".repeat(10_000) + " HTTP/1.1\r\n\r\n";
        assertTrue(status(longLine).startsWith("HTTP/1.1 4"), "an over-long request line is refused");
        assertScrapeAnsweredQuickly();
    }

    /** The status line of the reply to {@code request} on a fresh connection, which the endpoint then closes. */
    private String status(final String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", endpoint.port())) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            final StringBuilder line = new StringBuilder();
            final InputStream in = socket.getInputStream();
            for (int c = in.read(); c >= 0 && c != '\r'; c = in.read()) {
                line.append((char) c);
            }
            return line.toString();
        }
    }

    private void assertScrapeAnsweredQuickly() throws IOException {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            final long started = System.nanoTime();
            final String body = scrape();
            best = Math.min(best, System.nanoTime() - started);
            assertTrue(body.contains("trimswitch_port_rx_packets_total{port=\"599\"}"), body.length() + " bytes");
        }
        if (best > 100_000_000L) {
            abort("host too slow: the best of 5 scrapes took " + best / 1_000_000 + " ms");
        }
    }

    private String scrape() throws IOException {
        try (Socket socket = new Socket("127.0.0.1", endpoint.port())) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: switch\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            final String reply = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(reply.startsWith("HTTP/1.1 200"), reply.lines().findFirst().orElse(""));
            return reply;
        }
    }

    private static long openDescriptors() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** Reads the endpoint's open connections until they are at most {@code most} or {@code within} has passed: the last read. */
    private int openConnectionsOnceAtMost(final int most, final Duration within) throws InterruptedException {
        final long deadline = System.nanoTime() + within.toNanos();
        int open = endpoint.openConnections();
        while (open > most && System.nanoTime() - deadline < 0) {
            Thread.sleep(10);
            open = endpoint.openConnections();
        }
        return open;
    }
}
