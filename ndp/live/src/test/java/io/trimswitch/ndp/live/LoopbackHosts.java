package io.trimswitch.ndp.live;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A live receiver on loopback in a thread of its own, for tests: where it listens, what it reported, what it printed. */
final class LoopbackHosts implements AutoCloseable {
    final StringWriter errors = new StringWriter();
    final NdpReceivingHost receiver;
    final CompletableFuture<HostReport> received;

    LoopbackHosts(final double rateGbps, final int expectFlows, final long silenceNanos) throws InterruptedException {
        receiver = new NdpReceivingHost(new ReceiverSettings(new InetSocketAddress("127.0.0.1", 0), rateGbps, 0, expectFlows, silenceNanos,
            SenderSettings.DEFAULT_PAYLOAD, ReceiverSettings.CONTROL_DSCP, 64), new PrintWriter(errors, true));
        received = CompletableFuture.supplyAsync(() -> {
            try {
                return receiver.run();
            } catch (final java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (receiver.boundAddress() == null && !received.isDone() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    InetSocketAddress address() {
        return receiver.boundAddress();
    }

    HostReport awaitReport(final long seconds) throws InterruptedException, ExecutionException, TimeoutException {
        return received.get(seconds, TimeUnit.SECONDS);
    }

    static SenderSettings sender(final InetSocketAddress receiver, final double rateGbps, final int paths, final long silenceNanos,
        final long... flowBytes) {
        return timedSender(receiver, rateGbps, paths, silenceNanos, 0, flowBytes);
    }

    /** A sender that sends new data for {@code durationNanos} at most (0: until its flows are sent). */
    static SenderSettings timedSender(final InetSocketAddress receiver, final double rateGbps, final int paths, final long silenceNanos,
        final long durationNanos, final long... flowBytes) {
        return new SenderSettings(receiver, flowBytes, rateGbps, paths, 8, 20_000_000L, silenceNanos, SenderSettings.DEFAULT_PAYLOAD,
            SenderSettings.TRIMMABLE_DSCP, durationNanos);
    }

    @Override
    public void close() {
        receiver.stop();
    }
}
