package io.trimswitch.live;

import io.trimswitch.dataplane.counters.CounterTotals;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.sockets.MetricsEndpoint;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;

/**
 * The live switch's counters in Prometheus text format at {@code /metrics}, read at each scrape without
 * stopping the dataplane: the counters from the switch's registry, the numbers {@code stats} shows, and the
 * queues' depths and their quantiles from the switch itself. Names follow SAI's port counters (trim packets,
 * tx trim packets, dropped trim packets) with the usual rx/tx and drops by reason.
 */
public final class SwitchMetrics implements MultiCollector, AutoCloseable {
    private final LiveSwitch live;
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final MetricsEndpoint endpoint;

    /** Listens at {@code address}; what goes wrong with a client is told on standard error, one line per kind a minute. */
    public SwitchMetrics(final LiveSwitch live, final InetSocketAddress address) throws IOException {
        this(live, address, line -> System.err.println("trimswitch: " + line));
    }

    public SwitchMetrics(final LiveSwitch live, final InetSocketAddress address, final Consumer<String> log) throws IOException {
        this.live = live;
        registry.register(this);
        this.endpoint = new MetricsEndpoint(address, registry::scrape, log);
    }

    /** Connections the endpoint holds now. */
    int openConnections() {
        return endpoint.openConnections();
    }

    /** The port it listens on (useful when configured as 0). */
    public int port() {
        return endpoint.port();
    }

    @Override
    public MetricSnapshots collect() {
        final List<LiveSwitch.PortStats> stats = live.stats();
        final List<MetricSnapshot> snapshots = new ArrayList<>();
        snapshots.add(counter("trimswitch_port_rx_packets", "Frames received by the port's pipeline", stats, LiveSwitch.PortStats::rxPackets));
        snapshots.add(counter("trimswitch_port_rx_bytes", "Bytes received by the port's pipeline", stats, LiveSwitch.PortStats::rxBytes));
        snapshots.add(counter("trimswitch_port_rx_datagrams", "Datagrams (UDP ports) or frames (interface ports) that reached the port's socket", stats, LiveSwitch.PortStats::rxDatagrams));
        snapshots.add(counter("trimswitch_port_rx_segments", "Packets received on the wire, an offload frame counted by its segments", stats,
            LiveSwitch.PortStats::rxSegments));
        snapshots.add(counter("trimswitch_port_tx_packets", "Frames the port sent", stats, LiveSwitch.PortStats::txPackets));
        snapshots.add(counter("trimswitch_port_tx_segments", "Packets sent on the wire, an offload frame counted by its segments", stats,
            LiveSwitch.PortStats::txSegments));
        snapshots.add(counter("trimswitch_port_tx_bytes", "Bytes the port sent", stats, LiveSwitch.PortStats::txBytes));
        snapshots.add(counter("trimswitch_port_trim_packets", "SAI TRIM_PACKETS: packets to the port cut to their header", stats,
            LiveSwitch.PortStats::trimPackets));
        snapshots.add(counter("trimswitch_port_ingress_trim_packets", "Packets to the port trimmed by the ingress meters", stats,
            LiveSwitch.PortStats::ingressTrims));
        snapshots.add(counter("trimswitch_port_dod_trim_packets", "Packets to the port trimmed after deflect-on-drop", stats,
            LiveSwitch.PortStats::dodTrims));
        snapshots.add(counter("trimswitch_port_tx_trim_packets", "SAI TX_TRIM_PACKETS: trimmed packets the port sent", stats,
            LiveSwitch.PortStats::txTrimPackets));
        snapshots.add(counter("trimswitch_port_dropped_trim_packets", "SAI DROPPED_TRIM_PACKETS: trimmed packets dropped", stats,
            LiveSwitch.PortStats::droppedTrimPackets));
        snapshots.add(counter("trimswitch_port_untrimmable_ipv6_packets",
            "IPv6 packets received whose transport sits behind an extension header the switch does not step over", stats,
            LiveSwitch.PortStats::untrimmableIpv6));
        snapshots.add(counter("trimswitch_port_flooded_packets", "Copies made flooding frames that arrived on the port", stats,
            LiveSwitch.PortStats::flooded));
        final CounterSnapshot.Builder drops = CounterSnapshot.builder().name("trimswitch_port_drops").help("Packets dropped, by reason");
        // Every reason the port counts, at 0 too: a series that appears only at its first drop hides that drop from rate().
        final CounterTotals totals = CounterTotals.read(live.counters().reader());
        for (final LiveSwitch.PortStats port : stats) {
            for (final Map.Entry<String, Long> reason : totals.byName(port.port(), CounterType.DROPS).entrySet()) {
                drops.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                    .labels(Labels.of("port", Integer.toString(port.port()), "reason", reason.getKey())).value(reason.getValue()).build());
            }
        }
        snapshots.add(drops.build());
        final GaugeSnapshot.Builder up = GaugeSnapshot.builder().name("trimswitch_port_up")
            .help("An interface port's link: 1 while it carries frames, 0 while it is down or its interface is gone");
        live.linksUp().forEach((port, carries) -> up.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
            .labels(Labels.of("port", Integer.toString(port))).value(carries ? 1 : 0).build()));
        snapshots.add(up.build());
        final CounterSnapshot.Builder oversizeControl = CounterSnapshot.builder().name("trimswitch_port_oversize_control_packets")
            .help("Packets flagged or marked as headers (NDP ACK, NACK, PULL, trimmed) but longer than any header the switch makes: sent on as data");
        for (final LiveSwitch.PortStats port : stats) {
            oversizeControl.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(Labels.of("port", Integer.toString(port.port())))
                .value(totals.get(port.port(), CounterType.OVERSIZE_CONTROL_PACKETS)).build());
        }
        snapshots.add(oversizeControl.build());
        final GaugeSnapshot.Builder depth = GaugeSnapshot.builder().name("trimswitch_queue_depth_packets").help("Packets in a port's queue now");
        final GaugeSnapshot.Builder maxDepth = GaugeSnapshot.builder().name("trimswitch_queue_max_depth_packets").help("Most packets a port's queue has held");
        for (final LiveSwitch.PortStats port : stats) {
            final String id = Integer.toString(port.port());
            depth.dataPoint(gauge(id, "data", port.dataQueue()));
            depth.dataPoint(gauge(id, "header", port.headerQueue()));
            maxDepth.dataPoint(gauge(id, "data", port.maxDataQueue()));
            maxDepth.dataPoint(gauge(id, "header", port.maxHeaderQueue()));
        }
        snapshots.add(depth.build());
        snapshots.add(maxDepth.build());
        snapshots.addAll(trafficClassQueues(stats));
        final GaugeSnapshot.Builder quantiles = GaugeSnapshot.builder().name("trimswitch_queue_depth_quantile_packets")
            .help("Queue depth seen by departing packets since the switch started, by quantile");
        for (final LiveSwitch.PortStats port : stats) {
            final String id = Integer.toString(port.port());
            for (final double quantile : new double[] {0.5, 0.9, 0.99, 1.0}) {
                quantiles.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                    .labels(Labels.of("port", id, "queue", "data", "quantile", Double.toString(quantile)))
                    .value(port.dataQueueDepths().getValueAtPercentile(quantile * 100)).build());
                quantiles.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                    .labels(Labels.of("port", id, "queue", "header", "quantile", Double.toString(quantile)))
                    .value(port.headerQueueDepths().getValueAtPercentile(quantile * 100)).build());
            }
        }
        snapshots.add(quantiles.build());
        return new MetricSnapshots(snapshots);
    }

    /**
     * With traffic classes, each data queue (labels port, queue, discard), by SAI's queue statistics: PACKETS, and
     * DROPPED_PACKETS or TRIM_PACKETS for the packets that met it full, as its discard action says.
     */
    private static List<MetricSnapshot> trafficClassQueues(final List<LiveSwitch.PortStats> stats) {
        final CounterSnapshot.Builder queued = CounterSnapshot.builder().name("trimswitch_tc_queue_packets")
            .help("SAI QUEUE_STAT_PACKETS: packets queued in a traffic class's data queue");
        final CounterSnapshot.Builder overflowed = CounterSnapshot.builder().name("trimswitch_tc_queue_overflow_packets")
            .help("Packets that met the queue full: SAI QUEUE_STAT_DROPPED_PACKETS where it drops, QUEUE_STAT_TRIM_PACKETS where it trims");
        final GaugeSnapshot.Builder maxDepth = GaugeSnapshot.builder().name("trimswitch_tc_queue_max_depth_packets")
            .help("Most packets a traffic class's data queue has held");
        boolean any = false;
        for (final LiveSwitch.PortStats port : stats) {
            for (final LiveSwitch.QueueStats queue : port.queues()) {
                any = true;
                final Labels labels = Labels.of("port", Integer.toString(port.port()), "queue", Integer.toString(queue.queue()),
                    "discard", queue.discard());
                queued.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels).value(queue.queued()).build());
                overflowed.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels).value(queue.overflowed()).build());
                maxDepth.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(queue.maxDepth()).build());
            }
        }
        return any ? List.of(queued.build(), overflowed.build(), maxDepth.build()) : List.of();
    }

    private static GaugeSnapshot.GaugeDataPointSnapshot gauge(final String port, final String queue, final double value) {
        return GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(Labels.of("port", port, "queue", queue)).value(value).build();
    }

    private static CounterSnapshot counter(
        final String name, final String help, final List<LiveSwitch.PortStats> stats, final ToLongFunction<LiveSwitch.PortStats> value) {
        final CounterSnapshot.Builder builder = CounterSnapshot.builder().name(name).help(help);
        for (final LiveSwitch.PortStats port : stats) {
            builder.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                .labels(Labels.of("port", Integer.toString(port.port()))).value(value.applyAsLong(port)).build());
        }
        return builder.build();
    }

    @Override
    public void close() {
        endpoint.close();
    }
}
