package io.trimswitch.live.link;

import io.trimswitch.interfaces.LinkWatcher;
import io.trimswitch.live.shard.LiveShards;

import java.util.function.Consumer;

/**
 * A live switch's interface ports following their links, as OVS's rtnetlink listener does: one watcher reads the
 * kernel's news on its own thread and hands each to the shard that owns the port, as a command; the lines that tell of
 * each change go to the output on a thread of their own, so that a shard never waits on it.
 */
public final class LinkFollowing implements AutoCloseable {
    /** Null until the switch starts with interface ports. */
    private LinkWatcher watcher;
    /** Queues the lines for the output, once following. */
    private LinkLog log;
    /** Where each change a port makes as its link changes is told, one line each. */
    private volatile Consumer<String> output = line -> {
        System.out.println("trimswitch: " + line);
        System.out.flush();
    };

    /** The lines go to {@code lines} instead of stdout. */
    public void logTo(final Consumer<String> lines) {
        this.output = lines;
    }

    /**
     * Subscribes to the kernel's news of links, before the shards start.
     *
     * @throws IllegalStateException in one line when the kernel refuses it
     */
    public void open() {
        watcher = LinkWatcher.open();
    }

    /** Once the shards run: each shard's interfaces follow their links, and the watcher starts. */
    public void start(final LiveShards shards) {
        if (watcher == null) {
            return;
        }
        log = new LinkLog(line -> output.accept(line));
        shards.followLinks(watcher, log);
        watcher.start(watching -> Thread.ofPlatform().daemon().name("trimswitch-links").start(watching));
    }

    /** No more news: the watcher's thread ends. */
    @Override
    public void close() {
        if (watcher != null) {
            watcher.close();
        }
    }

    /** After the shards' last turn: the lines still queued go out, and the log's thread ends. */
    public void closeLog() {
        if (log != null) {
            log.close();
        }
    }
}
