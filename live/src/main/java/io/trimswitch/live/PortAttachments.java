package io.trimswitch.live;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.interfaces.InterfaceLocks;
import io.trimswitch.interfaces.InterfacePorts;
import io.trimswitch.live.port.LivePortKind;
import io.trimswitch.live.settings.LiveSettings;
import io.trimswitch.live.shard.LiveCommands;
import io.trimswitch.live.shard.LiveShards;
import io.trimswitch.switching.AssembledSwitch;

import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.IntConsumer;

/**
 * Which ports the live switch has and what each sits on: those its settings list, then those {@code ctl add-port} gave
 * it, each an interface or a UDP socket, attached, removed or waiting for its interface. The control thread alone
 * changes them, each change carried out by the port's shard ({@link LiveShards#onOwner}).
 */
final class PortAttachments {
    private final Settings settings;
    private final LiveShards shards;
    private final AssembledSwitch assembly;
    private final CounterRegistry counters;
    /** The switch's hold on its interfaces, or null when it has none. */
    private final InterfaceLocks locks;
    /** Told of each new port once it is attached (its gauges); set before the switch starts, so before any port is added. */
    private IntConsumer portAdded = port -> { };
    /** The attached ports in order: those the switch started with, then those {@code ctl add-port} gave it. */
    private volatile int[] attached;
    /** Interface ports given to the switch while it runs, beyond those its settings list. */
    private final Set<Integer> addedPorts = java.util.concurrent.ConcurrentHashMap.newKeySet();

    PortAttachments(final Settings settings, final LiveShards shards, final AssembledSwitch assembly, final CounterRegistry counters,
        final InterfaceLocks locks) {
        this.settings = settings;
        this.shards = shards;
        this.assembly = assembly;
        this.counters = counters;
        this.locks = locks;
        this.attached = java.util.stream.IntStream.range(0, settings.ports().size()).toArray();
    }

    /** {@code listener} is told of every port {@code ctl add-port} gives the switch, once it is attached. */
    void onPortAdded(final IntConsumer listener) {
        this.portAdded = listener;
    }

    /** The attached ports, in order. */
    int[] attached() {
        return attached;
    }

    /** Whether {@code port} is one of the switch's ports now (attached, or removed and not yet added again). */
    boolean isAttached(final int port) {
        for (final int own : attached) {
            if (own == port) {
                return true;
            }
        }
        return false;
    }

    /** The attached ports as users read them: 0..3, as ports are numbered in order. */
    String attachedList() {
        final int[] ports = attached;
        return ports.length == 0 ? "none" : "0.." + ports[ports.length - 1];
    }

    /** Whether attached port {@code port} sits on an interface. */
    boolean isInterfacePort(final int port) {
        return port < settings.ports().size() ? settings.ports().get(port).onInterface() : addedPorts.contains(port);
    }

    /**
     * The ports of the thread that owns interface port {@code port}.
     *
     * @throws ConfigException in one line, naming {@code command}, when {@code port} is not an interface port of this switch
     */
    InterfacePorts interfacePortOf(final int port, final String command) {
        if (!isAttached(port)) {
            throw new ConfigException(command + ": port " + port + " is not a port of this switch (" + attachedList()
                + "); add-port N@IFACE gives it the next one");
        }
        if (!isInterfacePort(port)) {
            throw new ConfigException(command + ": port " + port + " is a UDP port; only interface ports are removed and added while the switch runs");
        }
        return shards.interfacesOf(port);
    }

    /** See {@link LiveSwitch#addPort}. */
    String add(final int port, final String interfaceName) {
        final boolean isNew = !isAttached(port);
        final InterfacePorts owner = isNew ? newInterfacePortOf(port) : interfacePortOf(port, "add-port");
        if (!isNew && !owner.removed(port)) {
            throw new ConfigException("add-port: port " + port + " is attached to " + owner.interfaceName(port) + "; del-port " + port + " first");
        }
        for (final int other : attached) {
            final InterfacePorts ports = shards.interfacesOf(other);
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
            shards.adopt(port, interfaceName);
            addedPorts.add(port);
            portAdded.accept(port);
            final int[] more = java.util.Arrays.copyOf(attached, attached.length + 1);
            more[more.length - 1] = port;
            java.util.Arrays.sort(more);
            attached = more;
        } else {
            shards.onOwner(port, "add-port", new LiveCommands.AttachPort(owner, port, interfaceName));
        }
        return owner.attached(port) ? "port " + port + " added on " + interfaceName + ", pipeline " + assembly.pipelineOf(port)
            + " on thread " + shards.ownerOf(port)
            : "port " + port + " added, waiting for " + interfaceName + " (it cannot be opened yet: it comes up once it can)";
    }

    /** See {@link LiveSwitch#removePort}. */
    String remove(final int port) {
        final InterfacePorts owner = interfacePortOf(port, "del-port");
        if (owner.removed(port)) {
            throw new ConfigException("del-port: port " + port + " was removed already");
        }
        final String name = owner.interfaceName(port);
        shards.onOwner(port, "del-port", new LiveCommands.RemovePort(owner, port));
        locks.remove(name);
        return "port " + port + " (" + name + ") removed";
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
        if (!shards.running()) {
            throw new ConfigException("add-port: the switch is not running");
        }
        return shards.interfacesOf(port);
    }

    /** See {@link LiveSwitch#portViews}. */
    List<LiveSwitch.PortView> views(final Settings inForce) {
        final SortedMap<Integer, LiveSwitch.PortView> views = new TreeMap<>();
        for (final int port : attached) {
            if (!isInterfacePort(port)) {
                continue;
            }
            final InterfacePorts owner = shards.interfacesOf(port);
            views.put(port, new LiveSwitch.PortView(port, "interface", owner.interfaceName(port),
                owner.removed(port) ? "removed" : owner.linkUp(port) ? "up" : "down", inForce.portRateBps(port) / 1e9,
                assembly.pipelineOf(port), shards.ownerOf(port), java.util.stream.IntStream.of(shards.queueThreads(port)).boxed().toList()));
        }
        for (final int port : LivePortKind.named(LivePortKind.UDP).ports(settings)) {
            views.put(port, new LiveSwitch.PortView(port, LivePortKind.UDP, shards.socketsOf(port).attachment(port),
                "up", inForce.portRateBps(port) / 1e9,
                assembly.pipelineOf(port), shards.ownerOf(port), List.of(shards.ownerOf(port))));
        }
        return List.copyOf(views.values());
    }

    /** See {@link LiveSwitch#linksUp}. */
    SortedMap<Integer, Boolean> linksUp() {
        final SortedMap<Integer, Boolean> up = new TreeMap<>();
        for (final int port : attached) {
            if (isInterfacePort(port)) {
                up.put(port, shards.interfacesOf(port).linkUp(port));
            }
        }
        return up;
    }

    /** See {@link LiveSwitch#describePorts}. */
    List<String> describe() {
        // In port order, whatever kind each port is.
        final SortedMap<Integer, String> lines = new TreeMap<>();
        for (final InterfacePorts.Attachment attachment : LiveSettings.attachments(settings)) {
            final int port = attachment.port();
            lines.put(port, String.format("port %d: interface %s (%s, MTU %d), %.1f Gb/s, pipeline %d on thread %d", port,
                attachment.interfaceName(), shards.interfacesOf(port).describe(port), shards.interfacesOf(port).mtu(port), settings.portRateBps(port) / 1e9,
                assembly.pipelineOf(port), shards.ownerOf(port)));
        }
        for (final int port : LivePortKind.named(LivePortKind.UDP).ports(settings)) {
            lines.put(port, String.format("port %d: %s, %.1f Gb/s, pipeline %d on thread %d", port, shards.socketsOf(port).describe(port),
                settings.portRateBps(port) / 1e9, assembly.pipelineOf(port), shards.ownerOf(port)));
        }
        return List.copyOf(lines.values());
    }
}
