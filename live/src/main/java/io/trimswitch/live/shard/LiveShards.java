package io.trimswitch.live.shard;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.time.IngressLinks;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.interfaces.InterfacePorts;
import io.trimswitch.live.port.LivePortKind;
import io.trimswitch.live.port.LivePorts;
import io.trimswitch.live.port.PortKindSettings;
import io.trimswitch.live.port.QueueSpreading;
import io.trimswitch.live.port.UmemPieces;
import io.trimswitch.live.settings.LiveSettings;
import io.trimswitch.pipelines.BridgeForwarding;
import io.trimswitch.pipelines.ForwardingStage;
import io.trimswitch.realtime.shard.CommandQueue;
import io.trimswitch.realtime.shard.PipelineShard;
import io.trimswitch.realtime.shard.ShardCommand;
import io.trimswitch.realtime.shard.ShardedDataplane;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The live switch's shards and the ports each owns: its {@link LivePorts}, its UDP sockets, its interfaces and the links
 * that pace their arrivals. A port belongs to the shard of its pipeline (pipeline p on shard p mod
 * {@code realtime.pipelineThreads}), a port given to the switch while it runs too. Another thread changes what a shard
 * owns only through its command queue ({@link #onShard}).
 */
public final class LiveShards {
    /** How long a caller waits for a shard to take its command up. */
    private static final long COMMAND_WITHIN_SECONDS = 5;

    private final ShardedDataplane dataplane;
    private final LivePorts[] ports;
    /** Per shard: its UDP ports, or null. */
    private final LivePortKind.ShardPorts[] sockets;
    /** Per shard: its ports on Linux interfaces, or null. */
    private final InterfacePorts[] interfaces;
    /** Per shard: the links into its ports, which pace their arrivals at the ports' rates; its thread alone changes them. */
    private final IngressLinks[] ingressLinks;
    /** Null unless the switch bridges: its forwarding, with a copy of the bridge and a flood list per shard. */
    private final BridgeForwarding bridging;
    /** Which shard owns each port of the fabric. */
    private final int[] ownerOf;
    /** Per port the switch started with on an interface: the shard that reads each of its receive queues. */
    private final Map<Integer, int[]> queueThreads = new java.util.HashMap<>();
    /** While the shards' threads run: a command then waits for its shard; otherwise the caller carries it out. */
    private volatile boolean running;

    /** Buffers per shard's thread, of a pool that holds {@code bound}: whole slabs, and the pool within what a handle's metadata arrays can hold. */
    public static int partitionSize(final long bound, final int threads) {
        final int slab = PacketPool.SLOTS_PER_SLAB;
        final long wanted = (bound / threads + slab) / slab * slab;
        final long most = (1 << 20) / threads / slab * slab;
        return (int) Math.max(slab, Math.min(wanted, most));
    }

    /**
     * Each shard's ports, as {@code settings} lists them, on {@code dataplane}'s shards, which forward by {@code forwarding};
     * every counter in {@code counters}.
     */
    public LiveShards(final Settings settings, final ShardedDataplane dataplane, final CounterRegistry counters, final ForwardingStage forwarding) {
        this.dataplane = dataplane;
        this.bridging = forwarding instanceof BridgeForwarding bridge ? bridge : null;
        final int shards = dataplane.shards();
        this.ports = new LivePorts[shards];
        this.sockets = new LivePortKind.ShardPorts[shards];
        this.interfaces = new InterfacePorts[shards];
        this.ingressLinks = new IngressLinks[shards];
        this.ownerOf = new int[settings.portCount()];
        for (int port = 0; port < ownerOf.length; port++) {
            // By the layout: a port's pipeline, and the pipeline's shard; a port added later goes there too.
            ownerOf[port] = dataplane.shardOf(port);
        }
        // Every port of the fabric: one given to the switch while it runs enters at its rate too.
        final LinkRate[] rates = new LinkRate[settings.portCount()];
        for (int port = 0; port < rates.length; port++) {
            rates[port] = new LinkRate(settings.portRateBps(port));
        }
        if (bridging != null) {
            // Each shard's copy of the bridge tells the others what it learned, through their command queues.
            final CommandQueue[] queues = new CommandQueue[shards];
            for (int shard = 0; shard < shards; shard++) {
                queues[shard] = dataplane.shard(shard).commands();
            }
            BridgeNews.between(bridging, queues, Math.round(settings.forwarding().agingSeconds() * 1e9));
        }
        final Map<Integer, InterfacePorts.Attachment> attachments = new LinkedHashMap<>();
        LiveSettings.attachments(settings).forEach(attachment -> attachments.put(attachment.port(), UmemPieces.receivingInto(attachment, dataplane)));
        try {
            for (int thread = 0; thread < shards; thread++) {
                ingressLinks[thread] = new IngressLinks(rates);
                ports[thread] = new LivePorts(dataplane.shard(thread), dataplane, ingressLinks[thread]);
            }
            // Before the shards take their own ports: the receiving shard of a queue must not take its port for its own.
            final Map<Integer, InterfacePorts.Attachment> spread = QueueSpreading.spread(attachments, dataplane, ports, counters);
            attachments.values().forEach(each -> queueThreads.put(each.port(), QueueSpreading.threads(dataplane.ownership(), each.port(), each.queues())));
            if (bridging != null && !spread.equals(attachments)) {
                // A frame takes the bridge of the shard that meters it, from whose partition its buffer came (the switch
                // splits the pool evenly, in shard order): one writer per copy of the bridge.
                bridging.meteredBy(dataplane::shardOfBuffer);
            }
            for (int thread = 0; thread < shards; thread++) {
                build(thread, settings, counters, spread);
            }
        } catch (final RuntimeException | Error e) {
            release();
            throw e;
        }
    }

    /** Shard {@code thread}'s ports, as the settings give it. */
    private void build(final int thread, final Settings settings, final CounterRegistry counters,
        final Map<Integer, InterfacePorts.Attachment> attachments) {
        final PipelineShard shard = dataplane.shard(thread);
        final List<Integer> ownEndpoints = new ArrayList<>();
        final List<InterfacePorts.Attachment> ownAttachments = new ArrayList<>();
        for (final int port : shard.ownPorts()) {
            if (ownerOf[port] != thread) {
                // Another shard's port, some of whose receive queues this one reads.
                continue;
            }
            if (attachments.containsKey(port)) {
                ownAttachments.add(attachments.get(port));
            } else {
                ownEndpoints.add(port);
            }
        }
        final String writer = "sockets-" + thread;
        // Netty only for UDP sockets: a shard of interface ports has none.
        sockets[thread] = ownEndpoints.isEmpty() ? null
            : LivePortKind.named(LivePortKind.UDP).open(settings, ownEndpoints.stream().mapToInt(Integer::intValue).toArray(),
                ports[thread].context(counters, writer));
        // With interface ports, every shard can take one more while the switch runs (ctl add-port).
        interfaces[thread] = !LiveSettings.hasInterfacePorts(settings) ? null
            : new InterfacePorts(ownAttachments, settings.portCount(), ports[thread], dataplane.pool(), shard::allocate, dataplane::release,
                counters, writer);
        if (interfaces[thread] != null) {
            interfaces[thread].defaultKind(UmemPieces.receivingInto(PortKindSettings.portKind(settings), dataplane, thread));
        }
        ports[thread].sockets(sockets[thread], interfaces[thread]);
    }

    public int count() {
        return ports.length;
    }

    /** The shard that owns {@code port}. */
    public int ownerOf(final int port) {
        return ownerOf[port];
    }

    /** Per receive queue of {@code port}, the shard that reads it: its owner alone for a port of one queue. */
    public int[] queueThreads(final int port) {
        return queueThreads.getOrDefault(port, new int[] {ownerOf[port]}).clone();
    }

    /** The ports of the shard that owns {@code port}. */
    public LivePorts portsOf(final int port) {
        return ports[ownerOf[port]];
    }

    /** The interface ports of the shard that owns {@code port}, or null when the switch has none. */
    public InterfacePorts interfacesOf(final int port) {
        return interfaces[ownerOf[port]];
    }

    /** The address a UDP port listens on (its actual port when it was bound to port 0). */
    public InetSocketAddress localAddress(final int port) {
        return sockets[ownerOf[port]].localAddress(port);
    }

    /** The UDP ports of the shard that owns {@code port}. */
    public LivePortKind.ShardPorts socketsOf(final int port) {
        return sockets[ownerOf[port]];
    }

    /** Opens every shard's interfaces; one that cannot be opened closes those of its shard it had opened. */
    public void openInterfaces() {
        for (final InterfacePorts own : interfaces) {
            if (own != null) {
                own.open();
            }
        }
    }

    /** Starts the shards' threads, each binding its UDP sockets on its own turns, and waits for them to be bound. */
    public void startThreads(final Settings.RealTime realtime, final java.util.concurrent.atomic.AtomicReference<RuntimeException> fault) {
        running = true;
        for (int thread = 0; thread < ports.length; thread++) {
            final Thread runner = dataplane.thread(thread, realtime, fault);
            if (sockets[thread] != null) {
                sockets[thread].startingOn(runner);
            }
            runner.start();
        }
        for (int thread = 0; thread < ports.length; thread++) {
            if (sockets[thread] != null) {
                sockets[thread].awaitReady();
            }
        }
    }

    /** Each shard's interfaces follow their links: the kernel's news of each becomes a command on the shard's queue. */
    public void followLinks(final io.trimswitch.interfaces.LinkWatcher watcher, final java.util.function.Consumer<String> log) {
        for (int thread = 0; thread < ports.length; thread++) {
            final InterfacePorts own = interfaces[thread];
            if (own != null) {
                final PipelineShard shard = dataplane.shard(thread);
                own.follow(watcher, news -> shard.enqueue(new LiveCommands.FollowLink(own, news)), log);
            }
        }
    }

    /** Whether the shards' threads run (from start to stop). */
    public boolean running() {
        return running;
    }

    /** The shards stop taking commands: from now on their callers carry them out. */
    public void stopping() {
        running = false;
    }

    /**
     * Has shard {@code thread} carry {@code command} out at the start of its next turn, and waits for it; while the
     * shards do not run (before start, after stop) no thread but the caller's touches what it changes, and it is carried
     * out here.
     *
     * @throws ConfigException in one line that begins with {@code what} when the shard does not take it up in time
     */
    void onShard(final int thread, final String what, final ShardCommand command) {
        if (!running) {
            command.carryOut();
            return;
        }
        final CompletableFuture<Void> done = dataplane.shard(thread).submit(command);
        try {
            done.get(COMMAND_WITHIN_SECONDS, TimeUnit.SECONDS);
        } catch (final TimeoutException e) {
            throw new ConfigException(what + ": the port's thread did not take the change up within " + COMMAND_WITHIN_SECONDS
                + " s (host too slow?); it will when it can");
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConfigException(what + ": interrupted while the port's thread took the change up");
        } catch (final ExecutionException e) {
            throw new ConfigException(what + ": " + e.getCause().getMessage());
        }
    }

    /** The same, on the shard that owns {@code port}. */
    public void onOwner(final int port, final String what, final ShardCommand command) {
        onShard(ownerOf[port], what, command);
    }

    /** Every shard applies what changed from {@code from} to {@code to} to the pipelines, egress ports and links it owns. */
    public void retune(final Settings from, final Settings to) {
        for (int thread = 0; thread < ports.length; thread++) {
            onShard(thread, "set", new LiveCommands.Retune(dataplane, thread, ingressLinks[thread], from, to));
        }
    }

    /** Its own shard takes port {@code port} on {@code interfaceName}; then every shard's floods reach it too. */
    public void adopt(final int port, final String interfaceName) {
        onOwner(port, "add-port", new LiveCommands.AddPort(portsOf(port), port, interfaceName));
        for (int thread = 0; thread < ports.length && bridging != null; thread++) {
            onShard(thread, "add-port", new LiveCommands.FloodAlsoTo(bridging, thread, port));
        }
    }

    /**
     * Every shard's copy of the learning bridge, youngest copy of each address first, read on its own thread; into
     * {@code notLearned[0]}, the addresses the copies could not learn for want of room.
     */
    public Map<Long, LearnedMac> macs(final long[] notLearned) {
        final Map<Long, LearnedMac> found = new java.util.HashMap<>();
        for (int thread = 0; thread < ports.length && bridging != null; thread++) {
            try {
                dataplane.shard(thread).submit(new LiveCommands.ReadMacs(bridging.bridge(thread), dataplane.clock(), found, notLearned))
                    .get(COMMAND_WITHIN_SECONDS, TimeUnit.SECONDS);
            } catch (final TimeoutException | ExecutionException e) {
                throw new ConfigException("show macs: thread " + thread + " did not answer within 5 s (host too slow?)");
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ConfigException("show macs: interrupted");
            }
        }
        return found;
    }

    /**
     * Once the threads that {@code ended} have ended: their interfaces close (buffers of frames not yet sent go back), and
     * the sockets of a shard that never ran.
     */
    public void closePorts(final boolean[] ended) {
        for (int thread = 0; thread < ports.length; thread++) {
            if (!ended[thread]) {
                continue;
            }
            if (interfaces[thread] != null) {
                interfaces[thread].close();
            }
            if (!dataplane.ran(thread) && sockets[thread] != null) {
                sockets[thread].closeUnrun();
            }
        }
    }

    /** The pollers (an epoll set and an eventfd each) of the shards that {@code ended}. */
    public void closePollers(final boolean[] ended) {
        for (int thread = 0; thread < ports.length; thread++) {
            if (ended[thread]) {
                ports[thread].closePoller();
            }
        }
    }

    /** Undoes what was made for a switch that did not start: the shards' pollers and their interfaces' native memory. */
    public void release() {
        for (int thread = 0; thread < ports.length; thread++) {
            if (ports[thread] != null) {
                ports[thread].closePoller();
            }
            if (interfaces[thread] != null) {
                interfaces[thread].close();
            }
        }
    }
}
