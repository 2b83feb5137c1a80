package io.trimswitch.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.trimswitch.config.ConfigException;
import io.trimswitch.dataplane.counters.CounterFile;
import io.trimswitch.dataplane.counters.CounterTotals;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.packet.TrimKind;
import io.trimswitch.live.settings.LiveSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/**
 * {@code trimswitch stats}: a running switch's counters, read from its counters file as another process, without
 * asking the switch: each port's counters added up over the threads that write them.
 */
@Command(
    addMethodSubcommands = false,
    name = "stats",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Shows a running switch's port counters: rx/tx, trims (SAI-style), queue depths and drops by reason.")
public final class StatsCommand implements Callable<Integer> {
    private static final String[] QUANTILES = {"P50", "P90", "P99", "Max"};

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--counters", paramLabel = "FILE|NAME",
        description = "The switch's counters file, its metrics.countersFile, or a switch's name (sp1 finds Mininet's /run/trimswitch/trimswitch-mininet-sp1.counters) (default: /run/trimswitch/trimswitch-NETNS.counters, NETNS this network namespace's inode: the switch run in this namespace)")
    Path counters;

    @Option(names = "--metrics", paramLabel = "HOST:PORT", hidden = true,
        description = "Removed: stats reads the counters file, not the metrics endpoint; given, it says so and exits 2 (default: not given)")
    String metrics;

    @Option(names = "--json", description = "Print the counters as JSON, one object per port (default: a table).")
    boolean json;

    @Option(names = "--watch", paramLabel = "SECONDS",
        description = "Print again every SECONDS until interrupted, each time with the time and each port's rates since the last (default: once).")
    Double watch;

    @Option(names = "--count", paramLabel = "N", description = "With --watch: stop after N readings, as vmstat's count does (default: until interrupted).")
    Integer count;

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (metrics != null) {
            throw new ConfigException("--metrics is gone: stats reads the switch's counters file; name it with --counters FILE"
                + " (the switch's metrics.countersFile) if it is not the default");
        }
        if (watch != null && !(watch > 0 && watch <= 86_400)) {
            throw new ConfigException("--watch must be 0..86400 seconds (and above 0), got " + watch);
        }
        if (count != null && (watch == null || count < 1)) {
            throw new ConfigException(watch == null ? "--count goes with --watch SECONDS" : "--count must be at least 1, got " + count);
        }
        if (counters != null && counters.toString().isBlank()) {
            throw new ConfigException("--counters must name a file, got an empty name");
        }
        final Path file = counters != null ? CountersByName.find(counters) : LiveSettings.findInRunDirectory(LiveSettings.defaultCountersFile().getFileName().toString());
        final PrintWriter out = spec.commandLine().getOut();
        List<Map<String, Object>> before = null;
        long beforeNanos = 0;
        int readings = 0;
        do {
            // Opened afresh each time: a switch that stopped and started again has a new file.
            final List<Map<String, Object>> ports = ports(read(file));
            final long nanos = System.nanoTime();
            if (watch != null) {
                final String time = Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
                addRates(ports, before, (nanos - beforeNanos) / 1e9);
                if (json) {
                    ports.forEach(port -> port.put("time", time));
                } else {
                    out.println(time);
                }
            }
            if (json) {
                out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(ports));
            } else {
                out.print(table(ports, watch != null));
            }
            out.flush();
            before = ports;
            beforeNanos = nanos;
            readings++;
            if (watch != null && (count == null || readings < count)) {
                Thread.sleep((long) (watch * 1000));
            }
        } while (watch != null && (count == null || readings < count));
        return 0;
    }

    private static CounterTotals read(final Path file) {
        try {
            trust(file);
            final CounterTotals totals = CounterTotals.read(CounterFile.open(file));
            final long owner = CounterFile.ownerPid(file);
            if (owner <= 0) {
                throw new ConfigException("not running: the counters at " + file + " name no switch's process");
            }
            final long dead = ProcessHandle.of(owner).map(ProcessHandle::isAlive).orElse(false) ? CounterFile.deadOwner(file) : owner;
            if (dead > 0) {
                throw new ConfigException("the counters at " + file + " are a dead switch's (process " + dead
                    + " is no longer running): frozen at its end; the next 'trimswitch run' here replaces them");
            }
            return totals;
        } catch (final NoSuchFileException e) {
            throw new ConfigException("no switch's counters at " + file + " (is 'trimswitch run' up, in this network namespace,"
                + " with metrics.countersFile there?)");
        } catch (final AccessDeniedException e) {
            throw new ConfigException("cannot read the counters at " + file + ": permission denied");
        } catch (final IOException e) {
            throw new ConfigException(e.getMessage() != null && e.getMessage().startsWith(file.toString()) ? e.getMessage()
                : "cannot read the counters at " + file + ": " + e.getMessage());
        }
    }

    /**
     * Refuses counters that a switch did not write: a regular file owned by root (or by the user who runs stats, whose
     * own switch it may be), not a symbolic link another user planted at the default name.
     */
    private static void trust(final Path file) throws IOException {
        final Map<String, Object> attributes = java.nio.file.Files.readAttributes(file, "unix:uid,isRegularFile,isSymbolicLink",
            java.nio.file.LinkOption.NOFOLLOW_LINKS);
        if ((Boolean) attributes.get("isSymbolicLink")) {
            throw new ConfigException("not running: " + file + " is a symbolic link, not a switch's counters file");
        }
        final int uid = (Integer) attributes.get("uid");
        if ((Boolean) attributes.get("isRegularFile") && uid != 0 && uid != io.trimswitch.dataplane.io.PrivateFiles.processUid()) {
            throw new ConfigException("not running: the counters at " + file + " belong to user " + uid
                + ", not root; stats reads only a file a switch made");
        }
    }

    /** Every port that has a socket or an interface, as JSON objects whose keys keep the order users know. */
    static List<Map<String, Object>> ports(final CounterTotals totals) {
        final List<Map<String, Object>> ports = new ArrayList<>();
        for (final int port : totals.ports()) {
            if (totals.has(port, CounterType.RX_DATAGRAMS)) {
                ports.add(port(totals, port));
            }
        }
        return ports;
    }

    private static Map<String, Object> port(final CounterTotals totals, final int port) {
        final Map<String, Object> json = new LinkedHashMap<>();
        json.put("port", port);
        final Map<Integer, Long> trims = totals.byIndex(port, CounterType.TRIM_PACKETS);
        json.put("dodTrimPackets", trims.getOrDefault((int) TrimKind.DOD, 0L));
        json.put("droppedTrimPackets", totals.get(port, CounterType.DROPPED_TRIM_PACKETS));
        final Map<String, Long> drops = new TreeMap<>();
        totals.byName(port, CounterType.DROPS).forEach((reason, count) -> {
            if (count > 0) {
                drops.put(reason, count);
            }
        });
        if (!drops.isEmpty()) {
            json.put("drops", drops);
        }
        json.put("floodedFrames", totals.get(port, CounterType.FLOODED_FRAMES));
        json.put("floodedPackets", totals.get(port, CounterType.FLOODED_PACKETS));
        json.put("ingressTrimPackets", trims.getOrDefault((int) TrimKind.INGRESS, 0L));
        json.put("oversizeControlPackets", totals.get(port, CounterType.OVERSIZE_CONTROL_PACKETS));
        final long rxDatagrams = totals.get(port, CounterType.RX_DATAGRAMS);
        final long txPackets = totals.get(port, CounterType.TX_PACKETS);
        json.put("rxBytes", totals.get(port, CounterType.RX_BYTES));
        json.put("rxDatagrams", rxDatagrams);
        final Map<String, Long> readBy = totals.byName(port, CounterType.RX_DATAGRAMS);
        if (readBy.size() > 1) {
            // A port whose receive queues several pipeline threads read: what each read, its own thread's under "own".
            final Map<String, Long> byThread = new LinkedHashMap<>();
            readBy.forEach((thread, count) -> byThread.put(thread.isEmpty() ? "own" : thread, count));
            json.put("rxDatagramsByThread", byThread);
        }
        json.put("rxPackets", totals.get(port, CounterType.RX_PACKETS));
        // On the wire an offload frame is the segments the kernel cuts it into; on a UDP port a frame is one packet.
        json.put("rxSegments", totals.has(port, CounterType.RX_SEGMENTS) ? totals.get(port, CounterType.RX_SEGMENTS) : rxDatagrams);
        json.put("trimPackets", totals.get(port, CounterType.TRIM_PACKETS));
        json.put("txBytes", totals.get(port, CounterType.TX_BYTES));
        json.put("txPackets", txPackets);
        json.put("txSegments", totals.has(port, CounterType.TX_SEGMENTS) ? totals.get(port, CounterType.TX_SEGMENTS) : txPackets);
        json.put("txTrimPackets", totals.get(port, CounterType.TX_TRIM_PACKETS));
        json.put("untrimmableIpv6Packets", totals.get(port, CounterType.UNTRIMMABLE_IPV6_PACKETS));
        if (totals.has(port, CounterType.LINK_UP)) {
            // An interface port: whether its link carries frames now.
            json.put("up", totals.get(port, CounterType.LINK_UP) == 1);
        }
        json.put("dataQueueDepth", totals.get(port, CounterType.DATA_QUEUE_DEPTH));
        json.put("headerQueueDepth", totals.get(port, CounterType.HEADER_QUEUE_DEPTH));
        final Map<Integer, Long> data = totals.byIndex(port, CounterType.DATA_QUEUE_DEPTH_QUANTILE);
        final Map<Integer, Long> header = totals.byIndex(port, CounterType.HEADER_QUEUE_DEPTH_QUANTILE);
        for (int quantile = 0; quantile < QUANTILES.length; quantile++) {
            json.put("dataQueueDepth" + QUANTILES[quantile], data.getOrDefault(quantile, 0L));
            json.put("headerQueueDepth" + QUANTILES[quantile], header.getOrDefault(quantile, 0L));
        }
        json.put("dataQueueMaxDepth", totals.get(port, CounterType.DATA_QUEUE_MAX_DEPTH));
        json.put("headerQueueMaxDepth", totals.get(port, CounterType.HEADER_QUEUE_MAX_DEPTH));
        final Map<Integer, Long> queued = totals.byIndex(port, CounterType.TC_QUEUE_PACKETS);
        if (!queued.isEmpty()) {
            final Map<Integer, Long> overflowed = totals.byIndex(port, CounterType.TC_QUEUE_OVERFLOW_PACKETS);
            final Map<Integer, Long> maxDepth = totals.byIndex(port, CounterType.TC_QUEUE_MAX_DEPTH);
            final List<Map<String, Object>> queues = new ArrayList<>();
            for (final int queue : queued.keySet()) {
                final Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("queue", queue);
                entry.put("discard", totals.name(port, CounterType.TC_QUEUE_PACKETS, queue));
                entry.put("maxDepth", maxDepth.getOrDefault(queue, 0L));
                entry.put("overflowed", overflowed.getOrDefault(queue, 0L));
                entry.put("queued", queued.get(queue));
                queues.add(entry);
            }
            json.put("queues", queues);
        }
        return json;
    }

    /** The rates {@code --watch} shows, per second since the reading before: null at the first reading, or after a restart. */
    static void addRates(final List<Map<String, Object>> ports, final List<Map<String, Object>> before, final double seconds) {
        for (final Map<String, Object> port : ports) {
            final Map<String, Object> earlier = before == null ? null : before.stream()
                .filter(p -> p.get("port").equals(port.get("port"))).findFirst().orElse(null);
            port.put("rxPacketsPerSecond", rate(port, earlier, "rxPackets", seconds, 1));
            port.put("txPacketsPerSecond", rate(port, earlier, "txPackets", seconds, 1));
            port.put("rxGbps", rate(port, earlier, "rxBytes", seconds, 8e-9));
            port.put("txGbps", rate(port, earlier, "txBytes", seconds, 8e-9));
            port.put("trimPacketsPerSecond", rate(port, earlier, "trimPackets", seconds, 1));
        }
    }

    private static Double rate(final Map<String, Object> now, final Map<String, Object> earlier, final String key, final double seconds,
        final double scale) {
        if (earlier == null || !(seconds > 0)) {
            return null;
        }
        final long delta = ((Number) now.get(key)).longValue() - ((Number) earlier.get(key)).longValue();
        // Fewer than before: the switch started again with fresh counters; there is no rate across that.
        return delta < 0 ? null : delta * scale / seconds;
    }

    static String table(final List<Map<String, Object>> ports, final boolean rates) {
        final String columns = "%4s %12s %12s %10s %10s %10s %6s %6s %6s %6s";
        final String rateColumns = " %10s %10s %8s %8s %10s";
        final StringBuilder table = new StringBuilder(String.format(Locale.ROOT, columns, "port", "rx", "tx", "trims", "tx trims", "trim drops",
            "dataQ", "max", "hdrQ", "max"));
        if (rates) {
            table.append(String.format(Locale.ROOT, rateColumns, "rx pkt/s", "tx pkt/s", "rx Gb/s", "tx Gb/s", "trims/s"));
        }
        table.append("  drops").append(System.lineSeparator());
        for (final Map<String, Object> port : ports) {
            table.append(String.format(Locale.ROOT, columns, port.get("port"), port.get("rxPackets"), port.get("txPackets"), port.get("trimPackets"),
                port.get("txTrimPackets"), port.get("droppedTrimPackets"), port.get("dataQueueDepth"), port.get("dataQueueMaxDepth"),
                port.get("headerQueueDepth"), port.get("headerQueueMaxDepth")));
            if (rates) {
                table.append(String.format(Locale.ROOT, rateColumns, count(port.get("rxPacketsPerSecond")), count(port.get("txPacketsPerSecond")),
                    gbps(port.get("rxGbps")), gbps(port.get("txGbps")), count(port.get("trimPacketsPerSecond"))));
            }
            table.append("  ").append(reasons(port.get("drops"))).append(System.lineSeparator());
            if (port.get("rxDatagramsByThread") instanceof Map<?, ?> byThread) {
                table.append(String.format(Locale.ROOT, "%4s rx frames by the threads that read its queues: ", ""));
                byThread.forEach((thread, count) -> table.append("own".equals(thread) ? "its own " : thread + " ").append(count).append(", "));
                table.setLength(table.length() - 2);
                table.append(System.lineSeparator());
            }
        }
        return table.toString();
    }

    private static String count(final Object perSecond) {
        return perSecond == null ? "-" : String.format(Locale.ROOT, "%.0f", (Double) perSecond);
    }

    private static String gbps(final Object gbps) {
        return gbps == null ? "-" : String.format(Locale.ROOT, "%.3f", (Double) gbps);
    }

    /** Drops by reason as {@code reason=count,reason=count}, or {@code -} for none. */
    private static String reasons(final Object drops) {
        if (!(drops instanceof Map<?, ?> byReason) || byReason.isEmpty()) {
            return "-";
        }
        final StringBuilder text = new StringBuilder();
        byReason.forEach((reason, count) -> text.append(text.isEmpty() ? "" : ",").append(reason).append('=').append(count));
        return text.toString();
    }
}
