package io.trimswitch.live;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.CounterTotals;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.TrimKind;
import io.trimswitch.interfaces.InterfacePorts;
import io.trimswitch.live.gauges.LiveGauges;
import io.trimswitch.live.port.LivePortKind;
import io.trimswitch.live.port.LivePorts;
import io.trimswitch.live.shard.LiveShards;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.trafficmanager.EgressPort;
import io.trimswitch.trafficmanager.HandleQueue;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a live switch reports of its ports: a moment's view of each ({@code stats}, the metrics endpoint), from the
 * counters registry its threads count into, and the gauges sampled ten times a second from the egress ports, the shards'
 * queue-depth records and the kernel's drops.
 */
final class LiveStats implements AutoCloseable {
    private final Settings settings;
    private final CounterRegistry counters;
    private final AssembledSwitch assembly;
    private final LiveShards shards;
    private final PortAttachments ports;
    /** The kernel's table of UDP sockets, read once per sample for every port; null without UDP ports. */
    private final LivePortKind.KernelDrops socketDrops;
    private final LiveGauges gauges;

    LiveStats(final Settings settings, final CounterRegistry counters, final AssembledSwitch assembly, final LiveShards shards,
        final PortAttachments ports) {
        this.settings = settings;
        this.counters = counters;
        this.assembly = assembly;
        this.shards = shards;
        this.ports = ports;
        this.socketDrops = LivePortKind.named(LivePortKind.UDP).kernelDrops(settings);
        try {
            this.gauges = gauges();
        } catch (final RuntimeException | Error e) {
            if (socketDrops != null) {
                socketDrops.close();
            }
            throw e;
        }
    }

    /** The gauges of every attached port, sampled from its egress port, its thread and the kernel. */
    private LiveGauges gauges() {
        final List<LiveGauges.Port> sampled = new ArrayList<>();
        final List<DropReason> kernelDrops = new ArrayList<>();
        for (int port = 0; port < settings.ports().size(); port++) {
            final boolean onInterface = settings.ports().get(port).onInterface();
            kernelDrops.add(onInterface ? DropReason.RING_OVERFLOW : DropReason.SOCKET_OVERFLOW);
            sampled.add(gaugesOf(port, onInterface));
        }
        final List<String> discards = new ArrayList<>();
        if (settings.qos().configured()) {
            settings.qos().queues().forEach(queue -> discards.add(queue.discard().label()));
        }
        return new LiveGauges(counters, settings.portCount(), sampled, kernelDrops, discards, socketDrops);
    }

    /** Where port {@code id}'s gauges come from: its egress port, its shard, and the kernel's count for its ring or socket. */
    private LiveGauges.Port gaugesOf(final int id, final boolean onInterface) {
        final LivePorts owner = shards.portsOf(id);
        final InterfacePorts ring = onInterface ? shards.interfacesOf(id) : null;
        return new LiveGauges.Port() {
            private int boundPort = -1;

            @Override
            public EgressPort egress() {
                return assembly.port(id);
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
                    final InetSocketAddress bound = shards.localAddress(id);
                    boundPort = bound == null ? -1 : bound.getPort();
                }
                return boundPort < 0 || socketDrops == null ? 0 : socketDrops.drops(boundPort);
            }

            @Override
            public long fillRingDrops() {
                return ring == null ? 0 : ring.dropped(id, DropReason.FILL_RING_EMPTY);
            }
        };
    }

    /** Interface port {@code port}, given to the switch while it runs, is sampled too. */
    void gaugeNewPort(final int port) {
        gauges.add(port, gaugesOf(port, true), DropReason.RING_OVERFLOW);
    }

    /** The sampling thread starts. */
    void start() {
        gauges.start();
    }

    /** See {@link LiveSwitch#stats}. */
    List<LiveSwitch.PortStats> stats() {
        final CounterTotals totals = CounterTotals.read(counters.reader());
        final List<LiveSwitch.PortStats> stats = new ArrayList<>();
        for (final int port : ports.attached()) {
            final LivePorts owner = shards.portsOf(port);
            final Map<String, Long> drops = new LinkedHashMap<>();
            totals.byName(port, CounterType.DROPS).forEach((reason, count) -> {
                if (count > 0) {
                    drops.put(reason, count);
                }
            });
            final EgressPort egress = assembly.port(port);
            final Map<Integer, Long> trims = totals.byIndex(port, CounterType.TRIM_PACKETS);
            final long txPackets = totals.get(port, CounterType.TX_PACKETS);
            final long rxDatagrams = totals.get(port, CounterType.RX_DATAGRAMS);
            stats.add(new LiveSwitch.PortStats(port, rxDatagrams, totals.get(port, CounterType.RX_PACKETS), totals.get(port, CounterType.RX_BYTES),
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

    /** The port's data queues, when traffic classes give it several (their counts as last sampled); empty otherwise. */
    private List<LiveSwitch.QueueStats> queueStats(final EgressPort egress, final CounterTotals totals, final int port) {
        if (!settings.qos().configured()) {
            return List.of();
        }
        final List<LiveSwitch.QueueStats> queues = new ArrayList<>();
        final Map<Integer, Long> queued = totals.byIndex(port, CounterType.TC_QUEUE_PACKETS);
        final Map<Integer, Long> overflowed = totals.byIndex(port, CounterType.TC_QUEUE_OVERFLOW_PACKETS);
        for (int queue = 0; queue < egress.dataQueueCount(); queue++) {
            final HandleQueue data = egress.dataQueue(queue);
            queues.add(new LiveSwitch.QueueStats(queue, settings.qos().queues().get(queue).discard().label(), queued.getOrDefault(queue, 0L),
                overflowed.getOrDefault(queue, 0L), data.size(), data.maxDepth()));
        }
        return queues;
    }

    /** The sampling thread ends, and the kernel's socket tables close. */
    @Override
    public void close() {
        gauges.close();
    }
}
