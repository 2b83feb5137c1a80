package io.trimswitch.live;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.codec.OffloadHeader;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.interfaces.CallerFiles;
import io.trimswitch.interfaces.InterfaceLocks;
import io.trimswitch.interfaces.InterfacePorts;
import io.trimswitch.live.capture.LiveCapture;
import io.trimswitch.live.gauges.LiveGauges;
import io.trimswitch.live.link.LinkFollowing;
import io.trimswitch.live.port.UmemPieces;
import io.trimswitch.live.settings.LiveSettings;
import io.trimswitch.live.shard.LearnedMac;
import io.trimswitch.live.shard.LiveShards;
import io.trimswitch.realtime.shard.PipelineShard;
import io.trimswitch.realtime.shard.ShardedDataplane;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.switching.record.RunRecorder;
import org.HdrHistogram.Histogram;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The switch on a Linux host: its ports are AF_PACKET interfaces or UDP/VXLAN sockets, its pipelines, traffic manager
 * and recirculation the real-time dataplane's, undilated (one second of switch time is one second). The pipelines are
 * shared out over {@code realtime.pipelineThreads} pipeline shards, each an Agrona agent on a thread of its own, which
 * owns its pipelines' ports: it reads them, runs the pipelines, recirculation and egress, and sends (see
 * {@link PipelineShard}). {@link #start()} binds and starts every shard; {@link #stop()} stops them, sends what had
 * already left the egress ports, and counts what was still inside. {@link #addPort} gives a running switch one more
 * interface port. Every counter of the switch lives in one registry mapped to its counters file
 * ({@code metrics.countersFile}), with room for every port of the fabric, which {@code stats} reads and {@link #stop()}
 * deletes.
 *
 * <p>Its parts: the shards and their ports ({@link LiveShards}), which ports it has ({@link PortAttachments}), what it
 * reports ({@link LiveStats}), its captures ({@link LiveCaptures}) and its links ({@link LinkFollowing}). Whatever
 * another thread changes of a running shard goes through the shard's command queue.
 */
public final class LiveSwitch implements AutoCloseable {
    /** Per port, at most: its socket's or interface's counters, its pipeline thread's and its flooding's. */
    private static final int PORT_COUNTERS = 32;
    /**
     * How long {@link #stop()} waits for the shards' threads, all together: a thread still running then (blocked in a
     * call that ignores interrupts, such as a write to a full pipe) is left to end with the process.
     */
    public static final long STOP_WITHIN_MILLIS = 2_000;
    /** Between two of the runner's tries to end a thread that has not ended: each try interrupts it. */
    private static final int STOP_RETRY_MILLIS = 100;

    private final Settings settings;
    private final PacketPool pool;
    private final ShardedDataplane dataplane;
    private final LiveShards shards;
    private final PortAttachments ports;
    private final LiveStats stats;
    private final LiveCaptures captures;
    private final LinkFollowing links = new LinkFollowing();
    private final AtomicReference<RuntimeException> fault = new AtomicReference<>();
    private final AtomicLong inFlightAtStop = new AtomicLong();
    private final CounterRegistry counters;
    /** The switch's hold on its interfaces, or null when it has none. */
    private final InterfaceLocks locks;
    /** Set once stop (or a failed start) has given everything back; a second stop does nothing. */
    private boolean released;
    /** The shards' threads that had not ended when stop gave up on them (blocked in a call that ignores interrupts). */
    private final List<String> notStopped = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * The switch of {@code configured}, its counters file made (and its ports not yet bound).
     *
     * @throws ConfigException in one line when the settings cannot make a switch, another running switch uses the counters
     *                         file, or has one of its interfaces
     */
    public LiveSwitch(final Settings configured) {
        this.settings = LiveSettings.validate(configured);
        final int threadCount = settings.realtime().shards(settings.fabric().pipelines());
        final java.nio.file.Path file = LiveSettings.countersFile(settings);
        final List<String> interfaceNames = LiveSettings.attachments(settings).stream().map(InterfacePorts.Attachment::interfaceName).toList();
        try {
            // First: a second switch on an interface is told whose it is, whatever counters file it was given.
            this.locks = interfaceNames.isEmpty() ? null : InterfaceLocks.acquire(InterfaceLocks.DIRECTORY, interfaceNames);
        } catch (final IllegalStateException e) {
            throw new ConfigException(e.getMessage());
        }
        try {
            // A port of the fabric that the switch does not have puts its counters in the file once ctl add-port attaches it.
            this.counters = CounterRegistry.mapped(file, ShardedDataplane.counters(settings, threadCount)
                + settings.portCount() * (PORT_COUNTERS + LiveGauges.counters(settings.dataQueueCount())),
                port -> port >= settings.ports().size() && port < settings.portCount(), settings.metrics().controlGroup());
        } catch (final IllegalStateException e) {
            unlock();
            if (e.getMessage().contains("in use by another running switch")) {
                // The usual cause: a second switch in one network namespace, which needs a file and an endpoint of its own.
                throw new ConfigException(e.getMessage() + "; a second switch in this network namespace needs its own --counters FILE and"
                    + " --metrics HOST:PORT (or off)");
            }
            throw new ConfigException("metrics.countersFile: " + e.getMessage());
        }
        LiveShards built = null;
        try {
            // Every queue full, every link's backlog full: a buffer for each, split evenly between the threads.
            final long bound = AssembledSwitch.capacityBound(settings) + (long) settings.ports().size() * PipelineShard.LINK_BACKLOG_PACKETS;
            final int perThread = LiveShards.partitionSize(bound, threadCount);
            // With interface ports every buffer holds a 64 KB offload frame and its offload header; slabs are made as they are
            // used. Beside them, each shard has 4 KB frames its AF_XDP sockets lend the kernel to receive into (UmemPieces).
            this.pool = LiveSettings.hasInterfacePorts(settings)
                ? PacketPool.withHeadroom(perThread * threadCount, PacketPool.MAX_SLOT_BYTES, OffloadHeader.LENGTH, threadCount * UmemPieces.FRAMES_PER_SHARD)
                : new PacketPool(perThread * threadCount);
            final int[] partitions = new int[threadCount];
            java.util.Arrays.fill(partitions, perThread);
            // Drops are counted per port by each thread's traffic manager; the recorders only take what has no flow.
            final io.trimswitch.pipelines.ForwardingStage forwarding = LiveSettings.forwarding(settings, threadCount);
            this.dataplane = new ShardedDataplane(settings, pool, threadCount, partitions, counters, forwarding, () -> new RunRecorder(0, 16), false);
            built = new LiveShards(settings, dataplane, counters, forwarding);
            this.shards = built;
            this.ports = new PortAttachments(settings, shards, dataplane.assembly(), counters, locks);
            this.stats = new LiveStats(settings, counters, dataplane.assembly(), shards, ports);
            ports.onPortAdded(stats::gaugeNewPort);
            this.captures = new LiveCaptures(settings, dataplane.clock(), shards, ports);
        } catch (final RuntimeException | Error e) {
            if (built != null) {
                built.release();
            }
            counters.close();
            unlock();
            throw e;
        }
    }

    private void unlock() {
        if (locks != null) {
            locks.close();
        }
    }

    /** Sends the lines that tell of each port's link changes ({@code port 2 (sw-p2): down}) to {@code log}; stdout by default. */
    public void logLinksTo(final Consumer<String> log) {
        links.logTo(log);
    }

    /**
     * Binds every port and starts the threads. When it fails, the switch has given back everything it held (threads,
     * sockets, rings, pollers, the counters file, the interface locks): {@link #stop()} then does nothing more.
     *
     * @throws IllegalStateException naming the port when one cannot be bound
     */
    public void start() {
        try {
            shards.openInterfaces();
            if (LiveSettings.hasInterfacePorts(settings)) {
                links.open();
            }
            dataplane.clock().startIn(0);
            shards.startThreads(settings.realtime(), fault);
            links.start(shards);
            for (int thread = 0; thread < shards.count(); thread++) {
                dataplane.shard(thread).go();
            }
            stats.start();
        } catch (final RuntimeException | Error e) {
            stop();
            throw e;
        }
    }

    /** The first fault of a thread, or null while all is well. */
    public Throwable fault() {
        return fault.get();
    }

    /**
     * Stops every thread's work, sends what had already left its egress port, closes the sockets, and counts what was
     * still inside as in flight at the stop; then deletes the counters file and releases the interfaces. Bounded: a
     * shard's thread that has not ended within {@link #STOP_WITHIN_MILLIS} of interrupts is left to end with the process
     * ({@link #notStopped()}), its sockets and rings with it. A second call does nothing.
     */
    public synchronized void stop() {
        if (released) {
            return;
        }
        released = true;
        shards.stopping();
        links.close();
        final boolean[] ended = endThreads();
        // The threads have taken their last turn: no capture gets another frame, and each closes its file whole.
        captures.stopAll();
        shards.closePorts(ended);
        final java.util.function.IntConsumer inside = handle -> {
            inFlightAtStop.incrementAndGet();
            dataplane.release(handle);
        };
        // A thread left running is blocked, not forwarding: what its queues hold is counted as it is.
        dataplane.drainTo(inside);
        shards.closePollers(ended);
        stats.close();
        // The counters' memory stays mapped while a block refers to it: a thread left running may still count.
        counters.close();
        links.closeLog();
        unlock();
    }

    /**
     * Ends every shard's thread within {@link #STOP_WITHIN_MILLIS} in all, interrupting one that has not ended every
     * {@link #STOP_RETRY_MILLIS}. Per shard, whether its thread has ended (one that never started has); those that have
     * not are named in {@link #notStopped()}.
     */
    private boolean[] endThreads() {
        final boolean[] ended = dataplane.stop(STOP_WITHIN_MILLIS, STOP_RETRY_MILLIS);
        for (int thread = 0; thread < ended.length; thread++) {
            if (!ended[thread]) {
                notStopped.add("trimswitch-pipelines-" + thread);
            }
        }
        return ended;
    }

    /** Shard {@code thread}: for tests that block it in a call, as a full pipe or a stuck device would. */
    PipelineShard shard(final int thread) {
        return dataplane.shard(thread);
    }

    /** After {@link #stop()}: the shards' threads it left running, blocked; empty when every thread ended. */
    public List<String> notStopped() {
        return List.copyOf(notStopped);
    }

    @Override
    public void close() {
        stop();
    }

    /** One line per port, as the switch logs them at start. */
    public List<String> describePorts() {
        return ports.describe();
    }

    /**
     * Applies what may change while the switch runs, from {@code from} (the settings in force) to {@code to}: trim
     * settings, T0 and T1, port rates (egress, ingress pacing) and the meters' rates. Called by the control socket's
     * thread alone; each shard applies what it owns at the start of its next turn, and the call returns once all have.
     */
    public void retune(final Settings from, final Settings to) {
        dataplane.assembly().retuneShared(to);
        shards.retune(from, to);
    }

    /**
     * Starts capturing attached port {@code port}'s frames into {@code file}, from the control thread; the file is made
     * anew, never through a symbolic link, as this process's user.
     *
     * @throws ConfigException in one line when the port is not attached, already captured, or the file cannot be written
     */
    public LiveCapture startCapture(final int port, final Path file) {
        return startCapture(port, file, CallerFiles.Caller.ROOT, false);
    }

    /**
     * The same, the file opened with {@code caller}'s rights ({@link CallerFiles}): made anew, or with {@code overwrite}
     * an existing regular file replaced.
     */
    public LiveCapture startCapture(final int port, final Path file, final CallerFiles.Caller caller, final boolean overwrite) {
        return captures.start(port, file, caller, overwrite);
    }

    /** Stops port {@code port}'s capture, once its shard has let go of it, and closes its file; null when none runs. */
    public LiveCapture stopCapture(final int port) {
        return captures.stop(port);
    }

    /**
     * Removes interface port {@code port} while the switch runs ({@code ctl del-port}): its thread closes the interface's
     * socket and ring, and drops what was queued for it or still comes as {@code portRemoved}; its interface is free for
     * another switch. From the control thread.
     *
     * @throws ConfigException in one line when the port cannot be removed
     */
    public String removePort(final int port) {
        return ports.remove(port);
    }

    /**
     * Attaches interface port {@code port} to {@code interfaceName} while the switch runs ({@code ctl add-port}): a port
     * that was removed, or a port number the switch did not start with, within its fabric. A new port goes to the shard
     * that owns its pipeline (pipeline p on shard p mod {@code realtime.pipelineThreads}); it gets its counters (in
     * {@code stats}, the metrics and the counters file, which has room for every port of the fabric), and every shard
     * floods to it. The interface is opened here, and its shard takes it up between two turns, or waits for it as for
     * one that went away. From the control thread.
     *
     * @throws ConfigException in one line when the port cannot be attached there
     */
    public String addPort(final int port, final String interfaceName) {
        return ports.add(port, interfaceName);
    }

    /** Whether {@code port} is one of the switch's ports now (attached, or removed and not yet added again). */
    public boolean isAttached(final int port) {
        return ports.isAttached(port);
    }

    /**
     * The ports of the thread that owns interface port {@code port}.
     *
     * @throws ConfigException in one line, naming {@code command}, when {@code port} is not an interface port of this switch
     */
    public InterfacePorts interfacePortOf(final int port, final String command) {
        return ports.interfacePortOf(port, command);
    }

    /**
     * The addresses the switch forwards to without flooding ({@code ctl show macs}): static ones, and learned ones not
     * yet aged out, each with its port and age, youngest copy over the shards; by port, then address. Empty unless the
     * switch bridges. Each shard reads its own copy on its own thread, between two turns.
     */
    public MacTable macs() {
        final long[] notLearned = {0};
        final List<LearnedMac> macs = shards.macs(notLearned).values().stream()
            .sorted(java.util.Comparator.comparingInt(LearnedMac::port).thenComparingLong(LearnedMac::mac)).toList();
        return new MacTable(macs, notLearned[0]);
    }

    /** The learned addresses, and how many frames' sources were not learned since the start because a table was full. */
    public record MacTable(List<LearnedMac> macs, long notLearned) {
    }

    /**
     * What {@code ctl show} lists of an attached port; {@code queueThreads}: per receive queue of the port, the thread
     * that reads it ({@code thread} alone for a port of one queue).
     */
    public record PortView(int port, String kind, String attachment, String state, double rateGbps, int pipeline, int thread,
        List<Integer> queueThreads) {
    }

    /** The attached ports in port order, their rates as {@code inForce} gives them. */
    public List<PortView> portViews(final Settings inForce) {
        return ports.views(inForce);
    }

    /** The address a port listens on (its actual port when it was bound to port 0). */
    public InetSocketAddress localAddress(final int port) {
        return shards.localAddress(port);
    }

    /** Where every counter of this switch lives: the registry mapped to its counters file. */
    public CounterRegistry counters() {
        return counters;
    }

    /**
     * A moment's view of every attached port: its counters as the registry adds them up (what {@code stats} and the
     * metrics endpoint show), its queues' depths as they are now.
     */
    public List<PortStats> stats() {
        return stats.stats();
    }

    /** Per interface port, in port order: whether its link carries frames now (down, or its interface gone: false). */
    public java.util.SortedMap<Integer, Boolean> linksUp() {
        return ports.linksUp();
    }

    /** Packets that were inside the switch when it stopped. */
    public long inFlightAtStop() {
        return inFlightAtStop.get();
    }

    /** Buffers not back in the pool (after {@link #stop()}: 0). */
    public int buffersInUse() {
        return dataplane.buffersInUse();
    }

    public Settings settings() {
        return settings;
    }

    /** A port's counters as {@code stats} and the metrics endpoint show them. */
    public record PortStats(
        int port, long rxDatagrams, long rxPackets, long rxBytes, long txPackets, long txBytes, long trimPackets,
        long ingressTrims, long dodTrims, long txTrimPackets, long droppedTrimPackets, int dataQueue, int maxDataQueue,
        int headerQueue, int maxHeaderQueue, long flooded, Histogram dataQueueDepths,
        Histogram headerQueueDepths, Map<String, Long> drops, List<QueueStats> queues, long untrimmableIpv6, long rxSegments,
        long txSegments) {
    }

    /**
     * With traffic classes, one data queue of a port: packets queued, packets that met it full (trimmed or deflected
     * where it trims, dropped where it drops), and its depth now and at most.
     */
    public record QueueStats(int queue, String discard, long queued, long overflowed, int depth, int maxDepth) {
    }
}
