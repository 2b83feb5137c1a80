package io.trimswitch.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.trimswitch.config.ConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code trimswitch stats}: a running switch's counters, read from its metrics endpoint. */
@Command(
    addMethodSubcommands = false,
    name = "stats",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Shows a running switch's port counters: rx/tx, trims (SAI-style), queue depths and drops by reason.")
public final class StatsCommand implements Callable<Integer> {
    private static final Pattern SAMPLE = Pattern.compile("^(trimswitch_[a-z_]+?)(?:_total)?\\{([^}]*)\\} (\\S+)$");
    private static final Pattern LABEL = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--metrics", paramLabel = "HOST:PORT", description = "The switch's metrics endpoint (default: 127.0.0.1:9464)")
    String metrics = "127.0.0.1:9464";

    @Option(names = "--json", description = "Print the counters as JSON, one object per port (default: a table).")
    boolean json;

    @Option(names = "--watch", paramLabel = "SECONDS", description = "Print again every SECONDS until interrupted (default: once).")
    Double watch;

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (watch != null && !(watch > 0 && watch <= 86_400)) {
            throw new ConfigException("--watch must be 0..86400 seconds (and above 0), got " + watch);
        }
        final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        final PrintWriter out = spec.commandLine().getOut();
        do {
            final List<Map<String, Object>> ports = scrape(client);
            if (json) {
                out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(ports));
            } else {
                out.print(table(ports));
            }
            out.flush();
            if (watch != null) {
                Thread.sleep((long) (watch * 1000));
            }
        } while (watch != null);
        return 0;
    }

    private List<Map<String, Object>> scrape(final HttpClient client) throws InterruptedException {
        final String body;
        try {
            final HttpResponse<String> response = client.send(
                HttpRequest.newBuilder(URI.create("http://" + metrics + "/metrics")).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new ConfigException("the switch at " + metrics + " answered HTTP " + response.statusCode());
            }
            body = response.body();
        } catch (final IOException | IllegalArgumentException e) {
            throw new ConfigException("no switch answers at " + metrics + " (is 'trimswitch run' up with metrics.address there?): "
                + (e instanceof java.net.ConnectException ? "connection refused" : e.getMessage() != null ? e.getMessage() : "no answer"));
        }
        final Map<Integer, Map<String, Object>> byPort = new TreeMap<>();
        for (final String line : body.split("\n")) {
            final Matcher sample = SAMPLE.matcher(line);
            if (!sample.matches()) {
                continue;
            }
            final Map<String, String> labels = new TreeMap<>();
            final Matcher label = LABEL.matcher(sample.group(2));
            while (label.find()) {
                labels.put(label.group(1), label.group(2));
            }
            if (!labels.containsKey("port")) {
                continue;
            }
            final Map<String, Object> port = byPort.computeIfAbsent(Integer.parseInt(labels.get("port")), id -> {
                final Map<String, Object> fresh = new LinkedHashMap<>();
                fresh.put("port", id);
                return fresh;
            });
            final long value = (long) Double.parseDouble(sample.group(3));
            final String name = sample.group(1).replaceFirst("^trimswitch_(port_)?", "");
            if (labels.containsKey("discard")) {
                // A traffic class's queue: gathered per queue, in queue order.
                @SuppressWarnings("unchecked")
                final Map<Integer, Map<String, Object>> queues =
                    (Map<Integer, Map<String, Object>>) port.computeIfAbsent("queues", key -> new TreeMap<Integer, Map<String, Object>>());
                final Map<String, Object> queue = queues.computeIfAbsent(Integer.parseInt(labels.get("queue")), index -> {
                    final Map<String, Object> fresh = new LinkedHashMap<>();
                    fresh.put("queue", index);
                    fresh.put("discard", labels.get("discard"));
                    return fresh;
                });
                queue.put(switch (name) {
                    case "tc_queue_packets" -> "queued";
                    case "tc_queue_overflow_packets" -> "overflowed";
                    default -> camel(name.replace("tc_queue_", "").replace("_packets", ""));
                }, value);
            } else if (labels.containsKey("reason")) {
                @SuppressWarnings("unchecked")
                final Map<String, Long> drops = (Map<String, Long>) port.computeIfAbsent("drops", key -> new TreeMap<String, Long>());
                drops.put(labels.get("reason"), value);
            } else if (labels.containsKey("queue") && labels.containsKey("quantile")) {
                final double fraction = Double.parseDouble(labels.get("quantile"));
                final String quantile = fraction == 1.0 ? "max" : "p" + Math.round(fraction * 100);
                port.put(camel(labels.get("queue") + "_queue_depth_" + quantile), value);
            } else if (labels.containsKey("queue")) {
                port.put(camel(name.replace("queue_", labels.get("queue") + "_queue_").replace("_packets", "")), value);
            } else {
                port.put(camel(name), value);
            }
        }
        for (final Map<String, Object> port : byPort.values()) {
            port.computeIfPresent("queues", (key, queues) -> new ArrayList<>(((Map<?, ?>) queues).values()));
        }
        return new ArrayList<>(byPort.values());
    }

    private static String camel(final String snake) {
        final StringBuilder name = new StringBuilder();
        boolean upper = false;
        for (final char c : snake.toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                name.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return name.toString();
    }

    private static String table(final List<Map<String, Object>> ports) {
        final StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "%4s %12s %12s %10s %10s %10s %6s %6s %6s %6s  %s%n",
            "port", "rx", "tx", "trims", "tx trims", "trim drops", "dataQ", "max", "hdrQ", "max", "drops"));
        for (final Map<String, Object> port : ports) {
            table.append(String.format(Locale.ROOT, "%4s %12s %12s %10s %10s %10s %6s %6s %6s %6s  %s%n", port.get("port"),
                port.get("rxPackets"), port.get("txPackets"), port.get("trimPackets"), port.get("txTrimPackets"), port.get("droppedTrimPackets"),
                port.get("dataQueueDepth"), port.get("dataQueueMaxDepth"), port.get("headerQueueDepth"), port.get("headerQueueMaxDepth"),
                port.getOrDefault("drops", Map.of())));
        }
        return table.toString();
    }
}
