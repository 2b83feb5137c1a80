package io.trimswitch.live;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;
import io.trimswitch.interfaces.CallerFiles;
import io.trimswitch.live.capture.LiveCapture;
import io.trimswitch.live.shard.LiveCommands;
import io.trimswitch.live.shard.LiveShards;
import io.trimswitch.realtime.shard.DilatedClock;

import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The captures of a running switch's ports ({@code ctl capture}): the control thread starts and stops them, and tells the
 * port's shard, which alone hands frames to a capture, at the start of its next turn.
 */
final class LiveCaptures {
    private final Settings settings;
    private final DilatedClock clock;
    private final LiveShards shards;
    private final PortAttachments ports;
    /** Per port: its running capture, or null; the control thread alone sets them. */
    private final AtomicReferenceArray<LiveCapture> running;

    LiveCaptures(final Settings settings, final DilatedClock clock, final LiveShards shards, final PortAttachments ports) {
        this.settings = settings;
        this.clock = clock;
        this.shards = shards;
        this.ports = ports;
        this.running = new AtomicReferenceArray<>(settings.portCount());
    }

    /** See {@link LiveSwitch#startCapture(int, Path, CallerFiles.Caller, boolean)}. */
    LiveCapture start(final int port, final Path file, final CallerFiles.Caller caller, final boolean overwrite) {
        if (!ports.isAttached(port)) {
            throw new ConfigException("capture: port " + port + " is not attached; ports are " + ports.attachedList());
        }
        if (running.get(port) != null) {
            throw new ConfigException("capture: port " + port + " is already being captured to " + running.get(port).file());
        }
        final FileChannel channel;
        try {
            channel = CallerFiles.create(file, caller, overwrite);
        } catch (final CallerFiles.Refused e) {
            throw new ConfigException("capture: " + e.getMessage());
        }
        final long epochNanos = System.currentTimeMillis() * 1_000_000L - clock.nowPicos() / 1000;
        final LiveCapture capture;
        try {
            capture = new LiveCapture(port, file, channel, settings.portRateBps(port), epochNanos);
        } catch (final java.io.UncheckedIOException e) {
            try {
                channel.close();
            } catch (final java.io.IOException ignored) {
                // Already refusing with the first cause.
            }
            throw new ConfigException("capture: " + file + ": cannot write: " + e.getCause().getMessage());
        }
        running.set(port, capture);
        shards.onOwner(port, "capture", new LiveCommands.StartCapture(shards.portsOf(port), port, capture));
        return capture;
    }

    /** See {@link LiveSwitch#stopCapture}. */
    LiveCapture stop(final int port) {
        final LiveCapture capture = port >= 0 && port < running.length() ? running.getAndSet(port, null) : null;
        if (capture != null) {
            try {
                shards.onOwner(port, "capture", new LiveCommands.StopCapture(shards.portsOf(port), port));
            } finally {
                capture.close();
            }
        }
        return capture;
    }

    /** Once the shards' threads have taken their last turn: every capture closes its file whole. */
    void stopAll() {
        for (int port = 0; port < running.length(); port++) {
            stop(port);
        }
    }
}
