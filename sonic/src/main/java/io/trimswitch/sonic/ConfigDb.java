package io.trimswitch.sonic;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;
import io.trimswitch.config.SettingsFiles;
import io.trimswitch.config.WholeNumbers;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The trimming and QoS tables of a SONiC {@code config_db.json}, applied over a switch's settings, so that a SONiC
 * user can paste the configuration they already have. Read: {@code SWITCH_TRIMMING|GLOBAL} (size, dscp_value
 * including from-tc, tc_value, queue_index including dynamic), {@code DSCP_TO_TC_MAP}, {@code TC_TO_QUEUE_MAP},
 * {@code TC_TO_DSCP_MAP}, {@code PORT_QOS_MAP}, {@code BUFFER_PROFILE}
 * (packet_discard_action, size), {@code BUFFER_QUEUE}, {@code SCHEDULER} and {@code QUEUE}. Every port of the model
 * has the same queues and maps, so the ports of the file must agree. Anything the model cannot do is refused in one
 * line naming the table and key; tables that do not shape trimming or queueing are not read.
 */
public final class ConfigDb {
    private static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    /** Queues per port in SAI, and so the largest queue index a table may name. */
    private static final int MAX_QUEUES = 8;

    private final String source;
    private final JsonNode db;

    private ConfigDb(final JsonNode db, final String source) {
        this.db = db;
        this.source = source;
    }

    /** {@code settings} with what the tables of {@code file} say. */
    public static Settings apply(final Path file, final Settings settings) {
        return apply(SettingsFiles.read(file), file.toString(), settings);
    }

    public static Settings apply(final String json, final String source, final Settings settings) {
        final JsonNode db;
        try {
            db = JSON.readTree(json);
        } catch (final JsonProcessingException e) {
            final String message = e.getOriginalMessage();
            throw new ConfigException(source + ": not valid JSON"
                + (e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")") + ": " + message.lines().findFirst().orElse(""));
        }
        if (db == null || !db.isObject()) {
            throw new ConfigException(source + ": a config_db is a JSON object of tables (SWITCH_TRIMMING, BUFFER_PROFILE, ...)");
        }
        return new ConfigDb(db, source).applyTo(settings);
    }

    private Settings applyTo(final Settings settings) {
        final Settings.Trim trim = trimming(settings.trim());
        final int queues = queueCount();
        final Integer trimmedQueue = trimmedQueue(queues);
        if (queues == 0) {
            if (table("DSCP_TO_TC_MAP").size() > 0 || table("TC_TO_QUEUE_MAP").size() > 0) {
                throw refused("BUFFER_QUEUE", "", "the maps send traffic to queues, but no BUFFER_QUEUE entry gives a queue its buffer profile");
            }
            return settings.withTrim(t -> trim).withQos(q -> trimmedQueue == null ? q : q.withTrimmedQueue(trimmedQueue));
        }
        final List<Settings.Queue> list = new ArrayList<>();
        for (int queue = 0; queue < queues; queue++) {
            list.add(Settings.Queue.DEFAULTS);
        }
        buffers(list, settings.workload().packetBytes());
        schedulers(list);
        final String dscpMap = portMap("dscp_to_tc_map");
        final String tcMap = portMap("tc_to_queue_map");
        final Map<Integer, Integer> dscpToTc = dscpMap == null ? Map.of() : numberMap("DSCP_TO_TC_MAP", dscpMap, 63, MAX_QUEUES - 1);
        final Map<Integer, Integer> tcToQueue = tcMap == null ? Map.of() : numberMap("TC_TO_QUEUE_MAP", tcMap, MAX_QUEUES - 1, MAX_QUEUES - 1);
        return settings.withTrim(t -> trim).withQos(q -> new Settings.Qos(list, dscpToTc, tcToQueue, trimmedQueue == null ? q.trimmedQueue() : trimmedQueue));
    }

    /** SWITCH_TRIMMING|GLOBAL: how much a trimmed packet keeps and how it is marked. */
    private Settings.Trim trimming(final Settings.Trim given) {
        Settings.Trim settings = given;
        final JsonNode global = table("SWITCH_TRIMMING").get("GLOBAL");
        if (global == null) {
            return settings;
        }
        for (final Iterator<String> keys = global.fieldNames(); keys.hasNext(); ) {
            final String key = keys.next();
            final String value = text("SWITCH_TRIMMING", "GLOBAL", key, global.get(key));
            switch (key) {
                case "size" -> settings = settings.withSizeBytes(number("SWITCH_TRIMMING", "GLOBAL", key, value, 1, 9216));
                case "dscp_value" -> settings = "from-tc".equals(value) ? dscpFromTc(settings, trimmedTc(global))
                    : settings.withDscp(number("SWITCH_TRIMMING", "GLOBAL", key, value, 0, 63));
                case "queue_index" -> {
                    if (!"dynamic".equals(value)) {
                        number("SWITCH_TRIMMING", "GLOBAL", key, value, 0, MAX_QUEUES - 1);
                    }
                }
                case "tc_value" -> number("SWITCH_TRIMMING", "GLOBAL", key, value, 0, MAX_QUEUES - 1);
                default -> throw refused("SWITCH_TRIMMING", "GLOBAL", "unknown field '" + key + "' (known: size, dscp_value, tc_value, queue_index)");
            }
        }
        return settings;
    }

    /** tc_value: the traffic class of trimmed packets, which from-tc and dynamic need. */
    private int trimmedTc(final JsonNode global) {
        final JsonNode tc = global.get("tc_value");
        if (tc == null) {
            throw refused("SWITCH_TRIMMING", "GLOBAL", "dscp_value from-tc and queue_index dynamic need tc_value, the traffic class of trimmed packets");
        }
        return number("SWITCH_TRIMMING", "GLOBAL", "tc_value", text("SWITCH_TRIMMING", "GLOBAL", "tc_value", tc), 0, MAX_QUEUES - 1);
    }

    /**
     * dscp_value from-tc: each port remarks trimmed packets to what its TC_TO_DSCP_MAP gives tc_value. The model's ports
     * are the file's ports in name order (Ethernet0 is port 0, the next name port 1, ...). The first port's DSCP is
     * {@code trim.dscp}; ports that map to another become {@code trim.fabricPorts} with {@code trim.fabricDscp}.
     */
    private Settings.Trim dscpFromTc(final Settings.Trim settings, final int tc) {
        final List<String> ports = new ArrayList<>();
        table("PORT_QOS_MAP").fieldNames().forEachRemaining(ports::add);
        ports.sort(java.util.Comparator.comparing((String name) -> name.replaceAll("\\d", "")).thenComparingInt(ConfigDb::trailingNumber));
        if (ports.isEmpty()) {
            throw refused("PORT_QOS_MAP", "", "dscp_value from-tc needs a tc_to_dscp_map on every port, and no port has one");
        }
        final List<Integer> fabric = new ArrayList<>();
        Integer host = null;
        Integer other = null;
        for (int index = 0; index < ports.size(); index++) {
            final JsonNode mapName = table("PORT_QOS_MAP").get(ports.get(index)).get("tc_to_dscp_map");
            if (mapName == null) {
                throw refused("PORT_QOS_MAP", ports.get(index), "dscp_value from-tc needs a tc_to_dscp_map on every port");
            }
            final String name = reference(text("PORT_QOS_MAP", ports.get(index), "tc_to_dscp_map", mapName));
            final Map<Integer, Integer> map = numberMap("TC_TO_DSCP_MAP", name, MAX_QUEUES - 1, 63);
            final Integer dscp = map.get(tc);
            if (dscp == null) {
                throw refused("TC_TO_DSCP_MAP", name, "has no DSCP for the trimmed packets' traffic class " + tc);
            }
            if (host == null || host.equals(dscp)) {
                host = dscp;
            } else if (other == null || other.equals(dscp)) {
                other = dscp;
                fabric.add(index);
            } else {
                throw refused("TC_TO_DSCP_MAP", name, "gives trimmed packets a third DSCP " + dscp + " (after " + host + " and " + other
                    + "): the switch marks them one way towards hosts and one way towards the fabric");
            }
        }
        return other == null ? settings.withDscp(host) : settings.withDscp(host).withFabricDscp(other).withFabricPorts(fabric);
    }

    private static int trailingNumber(final String name) {
        final java.util.regex.Matcher digits = java.util.regex.Pattern.compile("(\\d+)$").matcher(name);
        return digits.find() ? WholeNumbers.parseInt(digits.group(1)) : 0;
    }

    /**
     * queue_index: a data queue the tables define takes the trimmed packets; an index beyond them (or none) leaves them
     * in the header queue, which plays the dedicated queue a switch sets aside for them. dynamic: the queue the
     * TC_TO_QUEUE_MAP gives tc_value.
     */
    private Integer trimmedQueue(final int queues) {
        final JsonNode global = table("SWITCH_TRIMMING").get("GLOBAL");
        final JsonNode index = global == null ? null : global.get("queue_index");
        if (index == null) {
            return null;
        }
        final String value = text("SWITCH_TRIMMING", "GLOBAL", "queue_index", index);
        final int queue;
        if ("dynamic".equals(value)) {
            final int tc = trimmedTc(global);
            final String tcMap = portMap("tc_to_queue_map");
            queue = tcMap == null ? tc : numberMap("TC_TO_QUEUE_MAP", tcMap, MAX_QUEUES - 1, MAX_QUEUES - 1).getOrDefault(tc, tc);
        } else {
            queue = number("SWITCH_TRIMMING", "GLOBAL", "queue_index", value, 0, MAX_QUEUES - 1);
        }
        return queue < queues ? queue : null;
    }

    /** How many queues BUFFER_QUEUE and QUEUE name: one more than the highest index. */
    private int queueCount() {
        int count = 0;
        for (final String table : new String[] {"BUFFER_QUEUE", "QUEUE"}) {
            for (final Iterator<String> keys = table(table).fieldNames(); keys.hasNext(); ) {
                final String key = keys.next();
                for (final int queue : queueRange(table, key)) {
                    count = Math.max(count, queue + 1);
                }
            }
        }
        return count;
    }

    /** BUFFER_QUEUE → BUFFER_PROFILE: each queue's depth and what it does with a packet that does not fit. */
    private void buffers(final List<Settings.Queue> queues, final int packetBytes) {
        final Map<Integer, String> profiles = perQueue("BUFFER_QUEUE", "profile");
        for (int queue = 0; queue < queues.size(); queue++) {
            final String name = profiles.get(queue);
            if (name == null) {
                throw refused("BUFFER_QUEUE", "queue " + queue, "has no buffer profile, but a higher queue has one: give every queue 0.." + (queues.size() - 1) + " a profile");
            }
            final JsonNode profile = table("BUFFER_PROFILE").get(name);
            if (profile == null) {
                throw refused("BUFFER_PROFILE", name, "is named by BUFFER_QUEUE but not defined");
            }
            Settings.Queue target = queues.get(queue);
            final JsonNode action = profile.get("packet_discard_action");
            final String discard = action == null ? "drop" : text("BUFFER_PROFILE", name, "packet_discard_action", action);
            if (!"drop".equals(discard) && !"trim".equals(discard)) {
                throw refused("BUFFER_PROFILE", name, "packet_discard_action must be drop or trim, got '" + discard + "'");
            }
            target = target.withDiscard("trim".equals(discard) ? Settings.Discard.TRIM : Settings.Discard.DROP);
            final JsonNode size = profile.get("size");
            if (size != null) {
                // A profile's size is in bytes; a queue here holds whole packets of the workload's size.
                final int bytes = number("BUFFER_PROFILE", name, "size", text("BUFFER_PROFILE", name, "size", size), 1, Integer.MAX_VALUE);
                target = target.withPackets(Math.max(1, bytes / packetBytes));
            }
            queues.set(queue, target);
        }
    }

    /** QUEUE → SCHEDULER: strict priority or DWRR with a weight. */
    private void schedulers(final List<Settings.Queue> queues) {
        final Map<Integer, String> schedulers = perQueue("QUEUE", "scheduler");
        schedulers.forEach((queue, name) -> {
            final JsonNode scheduler = table("SCHEDULER").get(name);
            if (scheduler == null) {
                throw refused("SCHEDULER", name, "is named by QUEUE but not defined");
            }
            final JsonNode type = scheduler.get("type");
            final String kind = type == null ? "DWRR" : text("SCHEDULER", name, "type", type).toUpperCase(java.util.Locale.ROOT);
            switch (kind) {
                case "STRICT" -> queues.set(queue, queues.get(queue).withScheduling(Settings.Scheduling.STRICT));
                case "DWRR", "WRR" -> {
                    queues.set(queue, queues.get(queue).withScheduling(Settings.Scheduling.DWRR));
                    final JsonNode weight = scheduler.get("weight");
                    if (weight != null) {
                        queues.set(queue, queues.get(queue).withWeight(number("SCHEDULER", name, "weight", text("SCHEDULER", name, "weight", weight), 1, 1000)));
                    }
                }
                default -> throw refused("SCHEDULER", name, "type must be STRICT, DWRR or WRR, got '" + kind + "'");
            }
        });
    }

    /**
     * A field of a per-queue table ({@code Ethernet0|3-4}), by queue index. Every port must say the same of a queue,
     * since every port of the model has the same queues.
     */
    private Map<Integer, String> perQueue(final String table, final String field) {
        final Map<Integer, String> byQueue = new TreeMap<>();
        for (final Iterator<Map.Entry<String, JsonNode>> entries = table(table).fields(); entries.hasNext(); ) {
            final Map.Entry<String, JsonNode> entry = entries.next();
            final JsonNode value = entry.getValue().get(field);
            if (value == null) {
                continue;
            }
            final String name = reference(text(table, entry.getKey(), field, value));
            for (final int queue : queueRange(table, entry.getKey())) {
                final String before = byQueue.put(queue, name);
                if (before != null && !before.equals(name)) {
                    throw refused(table, entry.getKey(), "gives queue " + queue + " " + field + " '" + name + "', another port gives it '" + before
                        + "': every port of the switch has the same queues");
                }
            }
        }
        return byQueue;
    }

    /** The map PORT_QOS_MAP gives every port, which must be the same for all; null when none is given. */
    private String portMap(final String field) {
        final Set<String> names = new LinkedHashSet<>();
        for (final Iterator<Map.Entry<String, JsonNode>> ports = table("PORT_QOS_MAP").fields(); ports.hasNext(); ) {
            final Map.Entry<String, JsonNode> port = ports.next();
            final JsonNode value = port.getValue().get(field);
            if (value != null) {
                names.add(reference(text("PORT_QOS_MAP", port.getKey(), field, value)));
            }
        }
        if (names.size() > 1) {
            throw refused("PORT_QOS_MAP", field, "ports use different maps " + names + ": every port of the switch has the same map");
        }
        return names.isEmpty() ? null : names.iterator().next();
    }

    private Map<Integer, Integer> numberMap(final String table, final String name, final int maxKey, final int maxValue) {
        final JsonNode map = table(table).get(name);
        if (map == null) {
            throw refused(table, name, "is named by PORT_QOS_MAP but not defined");
        }
        final Map<Integer, Integer> numbers = new TreeMap<>();
        for (final Iterator<Map.Entry<String, JsonNode>> entries = map.fields(); entries.hasNext(); ) {
            final Map.Entry<String, JsonNode> entry = entries.next();
            final int key = number(table, name, entry.getKey(), entry.getKey(), 0, maxKey);
            numbers.put(key, number(table, name, entry.getKey(), text(table, name, entry.getKey(), entry.getValue()), 0, maxValue));
        }
        return numbers;
    }

    /** Queue indexes of a key {@code PORT|N} or {@code PORT|N-M}. */
    private List<Integer> queueRange(final String table, final String key) {
        final int bar = key.lastIndexOf('|');
        if (bar < 0) {
            throw refused(table, key, "keys are PORT|QUEUE or PORT|FIRST-LAST");
        }
        final String range = key.substring(bar + 1);
        final int dash = range.indexOf('-');
        final int first = number(table, key, "queue", dash < 0 ? range : range.substring(0, dash), 0, MAX_QUEUES - 1);
        final int last = dash < 0 ? first : number(table, key, "queue", range.substring(dash + 1), first, MAX_QUEUES - 1);
        final List<Integer> queues = new ArrayList<>();
        for (int queue = first; queue <= last; queue++) {
            queues.add(queue);
        }
        return queues;
    }

    /** Old config_dbs write a reference as {@code [TABLE|name]}; new ones write the bare name. */
    private static String reference(final String value) {
        if (value.startsWith("[") && value.endsWith("]")) {
            final String inner = value.substring(1, value.length() - 1);
            return inner.substring(inner.indexOf('|') + 1);
        }
        return value;
    }

    private JsonNode table(final String name) {
        final JsonNode table = db.get(name);
        if (table == null || table.isNull()) {
            return JSON.createObjectNode();
        }
        if (!table.isObject()) {
            throw refused(name, "", "a table is a JSON object of entries");
        }
        return table;
    }

    private String text(final String table, final String key, final String field, final JsonNode value) {
        if (!value.isTextual() && !value.isNumber()) {
            throw refused(table, key, field + " must be a string, got " + value.getNodeType().toString().toLowerCase(java.util.Locale.ROOT));
        }
        return value.asText();
    }

    private int number(final String table, final String key, final String field, final String value, final int min, final int max) {
        final int number;
        try {
            number = WholeNumbers.parseInt(value.strip());
        } catch (final NumberFormatException e) {
            throw refused(table, key, field + " must be a number " + min + ".." + max + ", got '" + value + "'");
        }
        if (number < min || number > max) {
            throw refused(table, key, field + " must be " + min + ".." + max + ", got " + number);
        }
        return number;
    }

    private ConfigException refused(final String table, final String key, final String problem) {
        return new ConfigException(source + ": " + table + (key.isEmpty() ? "" : "|" + key) + ": " + problem);
    }
}
