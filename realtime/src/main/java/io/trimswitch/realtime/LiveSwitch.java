package io.trimswitch.realtime;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.codec.OffloadHeader;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.CounterTotals;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimKind;
import io.trimswitch.dataplane.time.IngressLinks;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.pipelines.ForwardingStage;
import io.trimswitch.pipelines.LearningBridge;
import io.trimswitch.pipelines.LpmForwarding;
import io.trimswitch.pipelines.PortSubnetForwarding;
import io.trimswitch.pipelines.PresetForwarding;
import io.trimswitch.realtime.LiveSettings;
import io.trimswitch.interfaces.InterfaceLocks;
import io.trimswitch.interfaces.InterfacePorts;
import io.trimswitch.interfaces.LinkWatcher;
import io.trimswitch.sockets.KernelSocketDrops;
import io.trimswitch.sockets.VxlanPorts;
import io.trimswitch.switching.RunRecorder;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.realtime.shard.PipelineShard;
import io.trimswitch.realtime.shard.ShardedDataplane;
import io.trimswitch.trafficmanager.EgressPort;
import io.trimswitch.trafficmanager.HandleQueue;
import org.HdrHistogram.Histogram;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
 */
public final class LiveSwitch implements AutoCloseable {
    /** Per port, at most: its socket's or interface's counters and its pipeline thread's. */
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
    /** Per shard: its ports. */
    private final LivePorts[] threads;
    private final VxlanPorts[] sockets;
    /** Per thread: its ports on Linux interfaces, or null. */
    private final InterfacePorts[] interfaces;
    /** Which thread owns each port. */
    private final int[] ownerOf;
    /** Per port: its running capture, or null; the control thread alone sets them. */
    private final java.util.concurrent.atomic.AtomicReferenceArray<LiveCapture> captures;
    /** Per thread: the links into its ports, which pace their arrivals at the ports' rates. */
    private final IngressLinks[] ingressLinks;
    private final AtomicReference<RuntimeException> fault = new AtomicReference<>();
    private final AtomicLong inFlightAtStop = new AtomicLong();
    private final CounterRegistry counters;
    private final LiveGauges gauges;
    /** The kernel's table of UDP sockets, read once per sample for every port; null without UDP ports. */
    private final KernelSocketDrops socketDrops;
    /** The attached ports in order: those the switch started with, then those {@code ctl add-port} gave it; the control thread alone replaces it. */
    private volatile int[] attached;
    /** Interface ports given to the switch while it runs, beyond those its settings list. */
    private final java.util.Set<Integer> addedPorts = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** The switch's hold on its interfaces, or null when it has none. */
    private final InterfaceLocks locks;
    /** The kernel's news of the interfaces' links, once started with interface ports. */
    private LinkWatcher links;
    /** Where each change a port makes as its link changes is told, one line each. */
    private volatile Consumer<String> linkOutput = line -> {
        System.out.println("trimswitch: " + line);
        System.out.flush();
    };
    /** Queues those lines for a thread of its own, once started with interface ports: a shard never waits on the output. */
    private LinkLog linkLog;
    private volatile boolean running;
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
        try {
            final int pipelines = settings.fabric().pipelines();
            // Every queue full, every link's backlog full: a buffer for each, split evenly between the threads.
            final long bound = AssembledSwitch.capacityBound(settings) + (long) settings.ports().size() * PipelineShard.LINK_BACKLOG_PACKETS;
            final int perThread = partitionSize(bound, threadCount);
            // With interface ports every buffer holds a 64 KB offload frame and its offload header; slabs are made as they are used.
            this.pool = LiveSettings.hasInterfacePorts(settings)
                ? PacketPool.withHeadroom(perThread * threadCount, PacketPool.MAX_SLOT_BYTES, OffloadHeader.LENGTH)
                : new PacketPool(perThread * threadCount);
            final int[] partitions = new int[threadCount];
            java.util.Arrays.fill(partitions, perThread);
            // Drops are counted per port by each thread's traffic manager; the recorders only take what has no flow.
            this.dataplane = new ShardedDataplane(settings, pool, threadCount, partitions, counters, forwarding(settings), () -> new RunRecorder(0, 16), false);
            this.threads = new LivePorts[threadCount];
            final int[] attached = java.util.stream.IntStream.range(0, settings.ports().size()).toArray();
            // Every port of the fabric: one given to the switch while it runs enters at its rate too.
            final LinkRate[] rates = new LinkRate[settings.portCount()];
            for (int port = 0; port < rates.length; port++) {
                rates[port] = new LinkRate(settings.portRateBps(port));
            }
            final LearningBridge[] bridges = new LearningBridge[threadCount];
            final long agingNanos = Math.round(settings.forwarding().agingSeconds() * 1e9);
            for (int thread = 0; thread < threadCount && settings.forwarding().mode() == Settings.ForwardingMode.L2; thread++) {
                bridges[thread] = new LearningBridge(agingNanos, LiveSettings.staticMacs(settings));
            }
            final BridgeNews[] news = bridges[0] == null ? new BridgeNews[threadCount] : BridgeNews.between(bridges, agingNanos);
            this.ownerOf = new int[settings.portCount()];
            for (int port = 0; port < ownerOf.length; port++) {
                // By the layout: a port's pipeline, and the pipeline's shard; a port added later goes there too.
                ownerOf[port] = dataplane.shardOf(port);
            }
            this.ingressLinks = new IngressLinks[threadCount];
            this.captures = new java.util.concurrent.atomic.AtomicReferenceArray<>(settings.portCount());
            this.sockets = new VxlanPorts[threadCount];
            this.interfaces = new InterfacePorts[threadCount];
            final Map<Integer, VxlanPorts.Endpoint> endpoints = new LinkedHashMap<>();
            LiveSettings.endpoints(settings).forEach(endpoint -> endpoints.put(endpoint.port(), endpoint));
            final Map<Integer, InterfacePorts.Attachment> attachments = new LinkedHashMap<>();
            LiveSettings.attachments(settings).forEach(attachment -> attachments.put(attachment.port(), attachment));
            for (int thread = 0; thread < threadCount; thread++) {
                ingressLinks[thread] = new IngressLinks(rates);
                final PipelineShard shard = dataplane.shard(thread);
                threads[thread] = new LivePorts(shard, dataplane, ingressLinks[thread], attached, bridges[thread], news[thread], captures);
                shard.ports(threads[thread]);
                final List<VxlanPorts.Endpoint> ownEndpoints = new ArrayList<>();
                final List<InterfacePorts.Attachment> ownAttachments = new ArrayList<>();
                for (final int port : shard.ownPorts()) {
                    if (attachments.containsKey(port)) {
                        ownAttachments.add(attachments.get(port));
                    } else {
                        ownEndpoints.add(endpoints.get(port));
                    }
                }
                final String writer = "sockets-" + thread;
                // Netty only for UDP sockets: a shard of interface ports has none.
                sockets[thread] = ownEndpoints.isEmpty() ? null
                    : new VxlanPorts(ownEndpoints, threads[thread], settings.realtime().udpGso(), counters, writer);
                // With interface ports, every shard can take one more while the switch runs (ctl add-port).
                interfaces[thread] = !LiveSettings.hasInterfacePorts(settings) ? null
                    : new InterfacePorts(ownAttachments, settings.portCount(), threads[thread], pool, dataplane::release, counters, writer);
                threads[thread].sockets(sockets[thread], interfaces[thread]);
            }
            this.socketDrops = LiveSettings.endpoints(settings).isEmpty() ? null : KernelSocketDrops.open();
            this.attached = java.util.stream.IntStream.range(0, settings.ports().size()).toArray();
            this.gauges = gauges();
        } catch (final RuntimeException | Error e) {
            releaseBuilt();
            throw e;
        }
    }

    /**
     * Undoes a constructor that failed part way: the shards' pollers (an epoll set and an eventfd each), the interface
     * ports' native memory, the kernel's socket tables, the counters file and the interface locks, as far as they were made.
     */
    private void releaseBuilt() {
        for (int thread = 0; threads != null && thread < threads.length; thread++) {
            if (threads[thread] != null) {
                threads[thread].closePoller();
            }
            if (interfaces != null && interfaces[thread] != null) {
                interfaces[thread].close();
            }
        }
        if (socketDrops != null && gauges == null) {
            socketDrops.close();
        }
        counters.close();
        unlock();
    }

    private void unlock() {
        if (locks != null) {
            locks.close();
        }
    }

    /** Sends the lines that tell of each port's link changes ({@code port 2 (sw-p2): down}) to {@code log}; stdout by default. */
    public void logLinksTo(final Consumer<String> log) {
        this.linkOutput = log;
    }

    /** The gauges of every attached port, sampled from its egress port, its thread and the kernel. */
    private LiveGauges gauges() {
        final List<LiveGauges.Port> ports = new ArrayList<>();
        final List<DropReason> kernelDrops = new ArrayList<>();
        for (int port = 0; port < settings.ports().size(); port++) {
            final boolean onInterface = settings.ports().get(port).onInterface();
            kernelDrops.add(onInterface ? DropReason.RING_OVERFLOW : DropReason.SOCKET_OVERFLOW);
            ports.add(gaugesOf(port, onInterface));
        }
        final List<String> discards = new ArrayList<>();
        if (settings.qos().configured()) {
            settings.qos().queues().forEach(queue -> discards.add(queue.discard().label()));
        }
        return new LiveGauges(counters, settings.portCount(), ports, kernelDrops, discards, socketDrops);
    }

    /** Where port {@code id}'s gauges come from: its egress port, its shard, and the kernel's count for its ring or socket. */
    private LiveGauges.Port gaugesOf(final int id, final boolean onInterface) {
        final LivePorts owner = threads[ownerOf[id]];
        final InterfacePorts ring = onInterface ? interfaces[ownerOf[id]] : null;
        return new LiveGauges.Port() {
            private int boundPort = -1;

            @Override
            public EgressPort egress() {
                return dataplane.assembly().port(id);
            }

            @Override
            public boolean depthsAt(final boolean data, final double[] percentiles, final long[] values) {
                return owner.depthsAt(id, data, percentiles, values);
            }

            @Override
            public long kernelDrops() {
                if (ring != null) {
                    return ring.dropped(id, DropReason.RING_OVERFLOW);
                }
                if (boundPort < 0) {
                    final InetSocketAddress bound = localAddress(id);
                    boundPort = bound == null ? -1 : bound.getPort();
                }
                return boundPort < 0 || socketDrops == null ? 0 : socketDrops.drops(boundPort);
            }
        };
    }

    /** Buffers per thread: whole slabs, and the pool within what a handle's metadata arrays can hold. */
    private static int partitionSize(final long bound, final int threads) {
        final int slab = PacketPool.SLOTS_PER_SLAB;
        final long wanted = (bound / threads + slab) / slab * slab;
        final long most = (1 << 20) / threads / slab * slab;
        return (int) Math.max(slab, Math.min(wanted, most));
    }

    private static ForwardingStage forwarding(final Settings settings) {
        switch (settings.forwarding().mode()) {
            case L2:
                return new PresetForwarding();
            case ROUTED:
                final long[] macs = new long[settings.portCount()];
                for (int port = 0; port < macs.length; port++) {
                    macs[port] = LiveSettings.portMac(port);
                }
                return new LpmForwarding(LiveSettings.routes(settings), LiveSettings.routes6(settings), macs);
            default:
                // Only the ports that have a socket: a frame for a port the assembly has but the host does not is not routed.
                return new PortSubnetForwarding(settings.ports().size());
        }
    }

    /**
     * Binds every port and starts the threads. When it fails, the switch has given back everything it held (threads,
     * sockets, rings, pollers, the counters file, the interface locks): {@link #stop()} then does nothing more.
     *
     * @throws IllegalStateException naming the port when one cannot be bound
     */
    public void start() {
        try {
            startPortsAndThreads();
        } catch (final RuntimeException | Error e) {
            stop();
            throw e;
        }
    }

    private void startPortsAndThreads() {
        for (final InterfacePorts ports : interfaces) {
            if (ports != null) {
                // A port that cannot be opened closes those of its shard it had opened.
                ports.open();
            }
        }
        if (LiveSettings.hasInterfacePorts(settings)) {
            links = LinkWatcher.open();
        }
        dataplane.clock().startIn(0);
        running = true;
        for (int thread = 0; thread < threads.length; thread++) {
            final Thread runner = dataplane.thread(thread, settings.realtime().idle(), fault);
            if (sockets[thread] != null) {
                // Bound by the shard's own turns, on the loop it drives.
                sockets[thread].bind(runner);
            }
            runner.start();
        }
        for (int thread = 0; thread < threads.length; thread++) {
            if (sockets[thread] != null) {
                for (final int fd : sockets[thread].awaitBound()) {
                    threads[thread].poller().add(fd);
                }
            }
        }
        if (links != null) {
            linkLog = new LinkLog(line -> linkOutput.accept(line));
        }
        for (int thread = 0; thread < threads.length && links != null; thread++) {
            if (interfaces[thread] != null) {
                final PipelineShard shard = dataplane.shard(thread);
                interfaces[thread].follow(links, shard::wake, linkLog);
            }
        }
        if (links != null) {
            links.start();
        }
        for (int thread = 0; thread < threads.length; thread++) {
            dataplane.shard(thread).go();
        }
        gauges.start();
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
        running = false;
        if (links != null) {
            links.close();
        }
        final boolean[] ended = endThreads();
        // The threads have taken their last turn: no capture gets another frame, and each closes its file whole.
        for (int port = 0; port < captures.length(); port++) {
            stopCapture(port);
        }
        for (int thread = 0; thread < threads.length; thread++) {
            if (!ended[thread]) {
                continue;
            }
            // Once their thread has ended: buffers of frames still waiting to be sent go back, counted below as inside.
            if (interfaces[thread] != null) {
                interfaces[thread].close();
            }
            if (!dataplane.ran(thread) && sockets[thread] != null) {
                // A thread that never ran closes no sockets of its own.
                sockets[thread].close();
            }
        }
        final java.util.function.IntConsumer inside = handle -> {
            inFlightAtStop.incrementAndGet();
            dataplane.release(handle);
        };
        // A thread left running is blocked, not forwarding: what its queues hold is counted as it is.
        dataplane.drainTo(inside);
        for (int thread = 0; thread < threads.length; thread++) {
            if (ended[thread]) {
                threads[thread].closePoller();
            }
        }
        gauges.close();
        // The counters' memory stays mapped while a block refers to it: a thread left running may still count.
        counters.close();
        if (linkLog != null) {
            linkLog.close();
        }
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
        // In port order, whatever kind each port is.
        final java.util.SortedMap<Integer, String> lines = new java.util.TreeMap<>();
        for (final InterfacePorts.Attachment attachment : LiveSettings.attachments(settings)) {
            final int port = attachment.port();
            lines.put(port, String.format("port %d: interface %s (AF_PACKET, MTU %d), %.1f Gb/s, pipeline %d on thread %d", port,
                attachment.interfaceName(), interfaces[ownerOf[port]].mtu(port), settings.portRateBps(port) / 1e9,
                dataplane.assembly().pipelineOf(port), ownerOf[port]));
        }
        for (final VxlanPorts.Endpoint endpoint : LiveSettings.endpoints(settings)) {
            final int port = endpoint.port();
            lines.put(port, String.format("port %d: udp %s vni %d, host %s, %.1f Gb/s, pipeline %d on thread %d", port,
                SocketAddresses.text(localAddress(port)), endpoint.vni(),
                endpoint.remote() == null ? "learned from its first datagram (sent to port " + endpoint.remotePort() + ")"
                    : SocketAddresses.text(endpoint.remote()), settings.portRateBps(port) / 1e9, dataplane.assembly().pipelineOf(port), ownerOf[port]));
        }
        return List.copyOf(lines.values());
    }

    /**
     * Applies what may change while the switch runs, from {@code from} (the settings in force) to {@code to}: trim
     * settings, T0 and T1, port rates (egress, ingress pacing) and the meters' rates. Called by the control socket's
     * thread alone, the one writer of these settings; every thread sees the change from its next packet on.
     */
    public void retune(final Settings from, final Settings to) {
        for (final int port : dataplane.assembly().retune(from, to)) {
            if (port < settings.portCount()) {
                for (final IngressLinks link : ingressLinks) {
                    link.rate(port, new LinkRate(to.portRateBps(port)));
                }
            }
        }
    }

    /**
     * Starts capturing attached port {@code port}'s frames into {@code file}, from the control thread; the file is made
     * anew, never through a symbolic link, as this process's user.
     *
     * @throws ConfigException in one line when the port is not attached, already captured, or the file cannot be written
     */
    public LiveCapture startCapture(final int port, final java.nio.file.Path file) {
        return startCapture(port, file, io.trimswitch.interfaces.CallerFiles.Caller.ROOT, false);
    }

    /**
     * The same, the file opened with {@code caller}'s rights ({@link io.trimswitch.interfaces.CallerFiles}): made anew, or
     * with {@code overwrite} an existing regular file replaced.
     */
    public LiveCapture startCapture(final int port, final java.nio.file.Path file, final io.trimswitch.interfaces.CallerFiles.Caller caller,
        final boolean overwrite) {
        if (!isAttached(port)) {
            throw new ConfigException("capture: port " + port + " is not attached; ports are " + attachedList());
        }
        if (captures.get(port) != null) {
            throw new ConfigException("capture: port " + port + " is already being captured to " + captures.get(port).file());
        }
        final java.nio.channels.FileChannel channel;
        try {
            channel = io.trimswitch.interfaces.CallerFiles.create(file, caller, overwrite);
        } catch (final io.trimswitch.interfaces.CallerFiles.Refused e) {
            throw new ConfigException("capture: " + e.getMessage());
        }
        final long epochNanos = System.currentTimeMillis() * 1_000_000L - dataplane.clock().nowPicos() / 1000;
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
        captures.set(port, capture);
        return capture;
    }

    /** Stops port {@code port}'s capture and closes its file; null when none runs. A frame being copied just then may miss the file. */
    public LiveCapture stopCapture(final int port) {
        final LiveCapture capture = port >= 0 && port < captures.length() ? captures.getAndSet(port, null) : null;
        if (capture != null) {
            capture.close();
        }
        return capture;
    }

    /**
     * Removes interface port {@code port} while the switch runs ({@code ctl del-port}): its thread closes the interface's
     * socket and ring, and drops what was queued for it or still comes as {@code portRemoved}; its interface is free for
     * another switch. From the control thread.
     *
     * @throws ConfigException in one line when the port cannot be removed
     */
    public String removePort(final int port) {
        final InterfacePorts owner = interfacePortOf(port, "del-port");
        if (owner.removed(port)) {
            throw new ConfigException("del-port: port " + port + " was removed already");
        }
        final String name = owner.interfaceName(port);
        awaitRequest(owner, owner.request(port, null));
        locks.remove(name);
        return "port " + port + " (" + name + ") removed";
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
        final boolean isNew = !isAttached(port);
        final InterfacePorts owner = isNew ? newInterfacePortOf(port) : interfacePortOf(port, "add-port");
        if (!isNew && !owner.removed(port)) {
            throw new ConfigException("add-port: port " + port + " is attached to " + owner.interfaceName(port) + "; del-port " + port + " first");
        }
        for (final int other : attached) {
            final InterfacePorts ports = interfaces[ownerOf[other]];
            if (other != port && isInterfacePort(other) && !ports.removed(other) && ports.interfaceName(other).equals(interfaceName)) {
                throw new ConfigException("add-port: interface " + interfaceName + " is port " + other + "'s already");
            }
        }
        try {
            if (isNew) {
                counters.show(port);
            }
            locks.add(interfaceName);
        } catch (final IllegalStateException e) {
            throw new ConfigException("add-port: " + e.getMessage());
        }
        // Opened and its ring mapped here, on the control thread: the port's shard only registers it, and forwards on.
        owner.prepare(port, interfaceName);
        if (isNew) {
            // Its own shard first, so that the port is there before any shard floods to it; then the others.
            onShard(ownerOf[port], shard -> shard.adopt(port, interfaceName));
            for (int thread = 0; thread < threads.length; thread++) {
                if (thread != ownerOf[port]) {
                    onShard(thread, shard -> shard.floodAlsoTo(port));
                }
            }
            addedPorts.add(port);
            gauges.add(port, gaugesOf(port, true), DropReason.RING_OVERFLOW);
            final int[] more = java.util.Arrays.copyOf(attached, attached.length + 1);
            more[more.length - 1] = port;
            java.util.Arrays.sort(more);
            attached = more;
        } else {
            awaitRequest(owner, owner.request(port, interfaceName));
        }
        return owner.attached(port) ? "port " + port + " added on " + interfaceName + ", pipeline " + dataplane.assembly().pipelineOf(port)
            + " on thread " + ownerOf[port]
            : "port " + port + " added, waiting for " + interfaceName + " (it cannot be opened yet: it comes up once it can)";
    }

    /** Runs {@code change} on shard {@code thread}'s own thread, between two of its turns, and waits for it. */
    private void onShard(final int thread, final Consumer<LivePorts> change) {
        final LivePorts ports = threads[thread];
        final java.util.concurrent.CompletableFuture<Void> done = dataplane.shard(thread).runOnThread(() -> change.accept(ports));
        try {
            done.get(5, java.util.concurrent.TimeUnit.SECONDS);
        } catch (final java.util.concurrent.TimeoutException e) {
            throw new ConfigException("add-port: the port's thread did not take the change up within 5 s (host too slow?); it will when it can");
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConfigException("add-port: interrupted while the port's thread took the change up");
        } catch (final java.util.concurrent.ExecutionException e) {
            throw new ConfigException("add-port: " + e.getCause().getMessage());
        }
    }

    /**
     * The interface ports of the shard that new port {@code port} goes to.
     *
     * @throws ConfigException in one line when the switch cannot take it
     */
    private InterfacePorts newInterfacePortOf(final int port) {
        if (port < 0 || port >= settings.portCount()) {
            throw new ConfigException("add-port: port " + port + " is beyond this switch's fabric (0.." + (settings.portCount() - 1)
                + ", fabric.pipelines x fabric.portsPerPipeline); a switch with more ports needs a restart");
        }
        if (!LiveSettings.hasInterfacePorts(settings)) {
            throw new ConfigException("add-port: a switch of UDP ports takes no interface port while it runs; restart it with one");
        }
        if (!running) {
            throw new ConfigException("add-port: the switch is not running");
        }
        return interfaces[ownerOf[port]];
    }

    /** Whether {@code port} is one of the switch's ports now (attached, or removed and not yet added again). */
    public boolean isAttached(final int port) {
        for (final int own : attached) {
            if (own == port) {
                return true;
            }
        }
        return false;
    }

    /** The attached ports as users read them: 0..3, as ports are numbered in order. */
    private String attachedList() {
        final int[] ports = attached;
        return ports.length == 0 ? "none" : "0.." + ports[ports.length - 1];
    }

    /** Whether attached port {@code port} sits on an interface. */
    private boolean isInterfacePort(final int port) {
        return port < settings.ports().size() ? settings.ports().get(port).onInterface() : addedPorts.contains(port);
    }

    /**
     * The ports of the thread that owns interface port {@code port}.
     *
     * @throws ConfigException in one line, naming {@code command}, when {@code port} is not an interface port of this switch
     */
    public InterfacePorts interfacePortOf(final int port, final String command) {
        if (!isAttached(port)) {
            throw new ConfigException(command + ": port " + port + " is not a port of this switch (" + attachedList()
                + "); add-port N@IFACE gives it the next one");
        }
        if (!isInterfacePort(port)) {
            throw new ConfigException(command + ": port " + port + " is a UDP port; only interface ports are removed and added while the switch runs");
        }
        return interfaces[ownerOf[port]];
    }

    /** Waits until the port's thread has carried the request out; it takes it up within one turn. */
    private static void awaitRequest(final InterfacePorts owner, final int request) {
        final long deadline = System.nanoTime() + 5_000_000_000L;
        while (!owner.carriedOut(request)) {
            if (System.nanoTime() > deadline) {
                throw new ConfigException("the port's thread did not take the change up within 5 s (host too slow?); it will when it can");
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
    }

    /**
     * The addresses the switch forwards to without flooding ({@code ctl show macs}): static ones, and learned ones not
     * yet aged out, each with its port and age, youngest copy over the shards; by port, then address. Empty unless the
     * switch bridges. Each shard reads its own copy on its own thread, between two turns.
     */
    public List<LearnedMac> macs() {
        final java.util.Map<Long, LearnedMac> found = new java.util.HashMap<>();
        for (int thread = 0; thread < threads.length; thread++) {
            final LivePorts ports = threads[thread];
            try {
                dataplane.shard(thread).runOnThread(() -> ports.macsInto(found)).get(5, java.util.concurrent.TimeUnit.SECONDS);
            } catch (final java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                throw new ConfigException("show macs: thread " + thread + " did not answer within 5 s (host too slow?)");
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ConfigException("show macs: interrupted");
            }
        }
        return found.values().stream().sorted(java.util.Comparator.comparingInt(LearnedMac::port).thenComparingLong(LearnedMac::mac)).toList();
    }

    /** What {@code ctl show} lists of an attached port. */
    public record PortView(int port, String kind, String attachment, String state, double rateGbps, int pipeline, int thread) {
    }

    /** The attached ports in port order, their rates as {@code inForce} gives them. */
    public List<PortView> portViews(final Settings inForce) {
        final java.util.SortedMap<Integer, PortView> views = new java.util.TreeMap<>();
        for (final int port : attached) {
            if (!isInterfacePort(port)) {
                continue;
            }
            final InterfacePorts owner = interfaces[ownerOf[port]];
            views.put(port, new PortView(port, "interface", owner.interfaceName(port),
                owner.removed(port) ? "removed" : owner.linkUp(port) ? "up" : "down", inForce.portRateBps(port) / 1e9,
                dataplane.assembly().pipelineOf(port), ownerOf[port]));
        }
        for (final VxlanPorts.Endpoint endpoint : LiveSettings.endpoints(settings)) {
            final int port = endpoint.port();
            final InetSocketAddress bound = localAddress(port);
            views.put(port, new PortView(port, "udp", SocketAddresses.text(bound) + " vni " + endpoint.vni(),
                "up", inForce.portRateBps(port) / 1e9,
                dataplane.assembly().pipelineOf(port), ownerOf[port]));
        }
        return List.copyOf(views.values());
    }

    /** The address a port listens on (its actual port when it was bound to port 0). */
    public InetSocketAddress localAddress(final int port) {
        return sockets[ownerOf[port]].localAddress(port);
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
        final CounterTotals totals = CounterTotals.read(counters.reader());
        final List<PortStats> stats = new ArrayList<>();
        for (final int port : attached) {
            final LivePorts owner = threads[ownerOf[port]];
            final Map<String, Long> drops = new LinkedHashMap<>();
            totals.byName(port, CounterType.DROPS).forEach((reason, count) -> {
                if (count > 0) {
                    drops.put(reason, count);
                }
            });
            final EgressPort egress = dataplane.assembly().port(port);
            final Map<Integer, Long> trims = totals.byIndex(port, CounterType.TRIM_PACKETS);
            final long txPackets = totals.get(port, CounterType.TX_PACKETS);
            final long rxDatagrams = totals.get(port, CounterType.RX_DATAGRAMS);
            stats.add(new PortStats(port, rxDatagrams, totals.get(port, CounterType.RX_PACKETS), totals.get(port, CounterType.RX_BYTES),
                txPackets, totals.get(port, CounterType.TX_BYTES), totals.get(port, CounterType.TRIM_PACKETS),
                trims.getOrDefault((int) TrimKind.INGRESS, 0L), trims.getOrDefault((int) TrimKind.DOD, 0L),
                totals.get(port, CounterType.TX_TRIM_PACKETS), totals.get(port, CounterType.DROPPED_TRIM_PACKETS),
                egress.dataQueue().size(), egress.dataQueue().maxDepth(), egress.headerQueue().size(), egress.headerQueue().maxDepth(),
                totals.get(port, CounterType.FLOODED_PACKETS), owner.depths(port, true), owner.depths(port, false), drops,
                queueStats(egress, totals, port), totals.get(port, CounterType.UNTRIMMABLE_IPV6_PACKETS),
                // On the wire an offload frame is the segments the kernel cuts it into; elsewhere a frame is one packet.
                totals.has(port, CounterType.RX_SEGMENTS) ? totals.get(port, CounterType.RX_SEGMENTS) : rxDatagrams,
                totals.has(port, CounterType.TX_SEGMENTS) ? totals.get(port, CounterType.TX_SEGMENTS) : txPackets));
        }
        return stats;
    }

    /** Per interface port, in port order: whether its link carries frames now (down, or its interface gone: false). */
    public java.util.SortedMap<Integer, Boolean> linksUp() {
        final java.util.SortedMap<Integer, Boolean> up = new java.util.TreeMap<>();
        for (final int port : attached) {
            if (isInterfacePort(port)) {
                up.put(port, interfaces[ownerOf[port]].linkUp(port));
            }
        }
        return up;
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

    /** The port's data queues, when traffic classes give it several (their counts as last sampled); empty otherwise. */
    private List<QueueStats> queueStats(final EgressPort egress, final CounterTotals totals, final int port) {
        if (!settings.qos().configured()) {
            return List.of();
        }
        final List<QueueStats> queues = new ArrayList<>();
        final Map<Integer, Long> queued = totals.byIndex(port, CounterType.TC_QUEUE_PACKETS);
        final Map<Integer, Long> overflowed = totals.byIndex(port, CounterType.TC_QUEUE_OVERFLOW_PACKETS);
        for (int queue = 0; queue < egress.dataQueueCount(); queue++) {
            final HandleQueue data = egress.dataQueue(queue);
            queues.add(new QueueStats(queue, settings.qos().queues().get(queue).discard().label(), queued.getOrDefault(queue, 0L),
                overflowed.getOrDefault(queue, 0L), data.size(), data.maxDepth()));
        }
        return queues;
    }
}
