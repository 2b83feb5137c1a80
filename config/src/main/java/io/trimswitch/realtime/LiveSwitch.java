package io.trimswitch.realtime;

import io.trimswitch.config.LiveSettings;
import io.trimswitch.config.SwitchSettings;
import io.trimswitch.dataplane.io.VxlanPorts;
import io.trimswitch.dataplane.packet.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimKind;
import io.trimswitch.pipeline.ForwardingStage;
import io.trimswitch.pipeline.LearningBridge;
import io.trimswitch.pipeline.LpmForwarding;
import io.trimswitch.pipeline.PresetForwarding;
import io.trimswitch.runtime.RunRecorder;
import io.trimswitch.runtime.SwitchFabric;
import io.trimswitch.runtime.VirtualTimeSwitch;
import io.trimswitch.tm.EgressPort;
import io.trimswitch.tm.HandleRing;
import io.trimswitch.tm.PortCounters;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.AgentRunner;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The switch on a Linux host: its ports are UDP/VXLAN sockets, its pipelines, traffic manager and
 * recirculation the real-time dataplane's, undilated (one second of switch time is one second).
 * {@link #start()} binds and starts every thread; {@link #stop()} stops them, sends what had already
 * left the egress ports, and counts what was still inside.
 */
public final class LiveSwitch implements AutoCloseable {
    private static final int TX_RING_PACKETS = 4096;

    private final SwitchSettings settings;
    private final PacketPool pool;
    private final HandleRing returns;
    private final RealTimeDataplane dataplane;
    private final SocketPorts ports;
    private final VxlanPorts sockets;
    private final List<AgentRunner> runners = new ArrayList<>();
    private final AtomicReference<RuntimeException> fault = new AtomicReference<>();
    private final AtomicLong inFlightAtStop = new AtomicLong();
    private volatile boolean running;

    public LiveSwitch(final SwitchSettings configured) {
        LiveSettings.validate(configured);
        this.settings = configured.copy();
        settings.clock = "real";
        settings.transport.kind = "open-loop";
        settings.realtime.dilation = 1;
        settings.realtime.warmUp = false;
        final int pipelines = settings.fabric.pipelines;
        final long capacity = VirtualTimeSwitch.capacityBound(settings) + (long) pipelines * settings.realtime.rxRingPackets
            + (long) settings.ports() * TX_RING_PACKETS;
        this.pool = new PacketPool((int) Math.min(capacity, 1 << 20));
        this.returns = new HandleRing(pool.capacity(), true);
        final AgentEvents.Release toPool = returns::offer;
        final LearningBridge bridge = "l2".equals(settings.forwarding.mode)
            ? new LearningBridge(Math.round(settings.forwarding.agingSeconds * 1e9), LiveSettings.staticMacs(settings)) : null;
        final SocketPorts[] portsHolder = new SocketPorts[1];
        this.dataplane = new RealTimeDataplane(settings, pool, returns, forwarding(settings),
            // Drops are counted per port by each thread's traffic manager; the recorders only take what has no flow.
            () -> new AgentEvents(pool, new RunRecorder(0, 16), toPool),
            group -> (port, handle, time) -> portsHolder[0].departed(port, handle, time));
        final int[] attached = new int[settings.ports.size()];
        for (int port = 0; port < attached.length; port++) {
            attached[port] = port;
        }
        this.ports = new SocketPorts(pool, returns, dataplane.rxRings, dataplane.fabric, dataplane.clock, bridge, attached, TX_RING_PACKETS);
        portsHolder[0] = ports;
        this.sockets = new VxlanPorts(LiveSettings.endpoints(settings), ports);
        ports.sockets(sockets);
    }

    private static ForwardingStage forwarding(final SwitchSettings settings) {
        switch (settings.forwarding.mode) {
            case "l2":
                return new PresetForwarding();
            case "routed":
                final long[] macs = new long[settings.ports()];
                for (int port = 0; port < macs.length; port++) {
                    macs[port] = LiveSettings.portMac(port);
                }
                return new LpmForwarding(LiveSettings.routes(settings), macs);
            default:
                return SwitchFabric.defaultForwarding(settings);
        }
    }

    /**
     * Binds every port and starts the threads.
     *
     * @throws IllegalStateException naming the port when one cannot be bound
     */
    public void start() {
        dataplane.clock.startIn(0);
        sockets.start("trimswitch-ports");
        runners.addAll(dataplane.start(dataplane.threads(null), fault));
        running = true;
    }

    /** The first fault of a thread, or null while all is well. */
    public Throwable fault() {
        return fault.get();
    }

    /**
     * Stops the pipelines and egress first, then sends what had already left its egress port, then closes
     * the sockets; what was still queued inside is counted as in flight at the stop.
     */
    public void stop() {
        if (!running) {
            return;
        }
        running = false;
        for (final AgentRunner runner : runners) {
            runner.close();
        }
        final CountDownLatch sent = new CountDownLatch(1);
        sockets.execute(() -> {
            dataplane.drainTo(handle -> {
                inFlightAtStop.incrementAndGet();
                pool.free(handle);
            });
            for (int port = 0; port < dataplane.fabric.ports(); port++) {
                final HandleRing ring = ports.txRing(port);
                final int id = port;
                ring.drain(handle -> {
                    sockets.send(id, pool.buffer(handle), pool.offset(handle), pool.length(handle));
                    pool.free(handle);
                }, Integer.MAX_VALUE);
            }
            sockets.flush();
            returns.drain(pool::free, Integer.MAX_VALUE);
            sent.countDown();
        });
        try {
            sent.await(5, TimeUnit.SECONDS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sockets.close();
    }

    @Override
    public void close() {
        stop();
    }

    /** One line per port, as the switch logs them at start. */
    public List<String> describePorts() {
        final List<String> lines = new ArrayList<>();
        for (final VxlanPorts.Endpoint endpoint : sockets.endpoints()) {
            final int port = endpoint.port();
            lines.add(String.format("port %d: udp %s vni %d, host %s, %.1f Gb/s, pipeline %d", port, sockets.localAddress(port),
                endpoint.vni(), endpoint.remote() == null ? "learned from its first datagram (sent to port " + endpoint.remotePort() + ")"
                    : endpoint.remote().toString(), settings.portRateBps(port) / 1e9, dataplane.fabric.pipelineOf(port)));
        }
        return lines;
    }

    /** A moment's view of every attached port's counters, read while the switch runs. */
    public List<PortStats> stats() {
        final List<PortStats> stats = new ArrayList<>();
        for (final VxlanPorts.Endpoint endpoint : sockets.endpoints()) {
            final int port = endpoint.port();
            final PortCounters counters = dataplane.totals(port);
            final Map<String, Long> drops = new LinkedHashMap<>();
            for (final DropReason reason : DropReason.values()) {
                if (counters.drops[reason.ordinal()] > 0) {
                    drops.put(reason.label(), counters.drops[reason.ordinal()]);
                }
            }
            for (final VxlanPorts.Malformed reason : VxlanPorts.Malformed.values()) {
                if (sockets.malformed(port, reason) > 0) {
                    drops.put(reason.label(), sockets.malformed(port, reason));
                }
            }
            for (final SocketPorts.Refused reason : SocketPorts.Refused.values()) {
                if (ports.refused(port, reason) > 0) {
                    drops.put(reason.label(), ports.refused(port, reason));
                }
            }
            final EgressPort egress = dataplane.fabric.port(port);
            stats.add(new PortStats(port, sockets.receivedDatagrams(port), counters.rxPackets, counters.rxBytes, counters.txPackets,
                counters.txBytes, counters.trimPacketsTotal(), counters.trimPackets[TrimKind.INGRESS],
                counters.trimPackets[TrimKind.DOD], counters.txTrimPackets, counters.droppedTrimPackets,
                egress.dataQueue().size(), egress.dataQueue().maxDepth(), egress.headerQueue().size(), egress.headerQueue().maxDepth(),
                ports.flooded(port), ports.depths(port, true), ports.depths(port, false), drops));
        }
        return stats;
    }

    /** The ports' sockets: where they listen, what they counted. */
    public VxlanPorts sockets() {
        return sockets;
    }

    /** Packets that were inside the switch when it stopped. */
    public long inFlightAtStop() {
        return inFlightAtStop.get();
    }

    /** Buffers not back in the pool (after {@link #stop()}: 0). */
    public int buffersInUse() {
        return pool.inUse();
    }

    public SwitchSettings settings() {
        return settings;
    }

    /** A port's counters as {@code stats} and the metrics endpoint show them. */
    public record PortStats(
        int port, long rxDatagrams, long rxPackets, long rxBytes, long txPackets, long txBytes, long trimPackets,
        long ingressTrims, long dodTrims, long txTrimPackets, long droppedTrimPackets, int dataQueue, int maxDataQueue,
        int headerQueue, int maxHeaderQueue, long flooded, Histogram dataQueueDepths,
        Histogram headerQueueDepths, Map<String, Long> drops) {
    }
}
