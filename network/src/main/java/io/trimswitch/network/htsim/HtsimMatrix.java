package io.trimswitch.network.htsim;

import io.trimswitch.config.ConfigException;
import io.trimswitch.dataplane.io.InputFiles;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The flows of an experiment as htsim's connection matrix ({@code .cm}, and the {@code .tm} files of uet-htsim's
 * validation) gives them: a header of {@code Nodes N}, {@code Connections M} and optionally {@code Triggers T} and
 * {@code Failures F}, then one line per flow ({@code SRC->DST [id I] start US | trigger T, size BYTES [send_done_trigger T]
 * [recv_done_trigger T] [prio P] [msg M]}), per trigger ({@code trigger id T oneshot | multishot | barrier [count C]})
 * and per failed link ({@code failure switch_type AGG switch_id S link_id L}). Every problem is refused in one line
 * naming the file, the line and the word.
 */
public record HtsimMatrix(int nodes, List<Connection> connections, List<Trigger> triggers, List<Failure> failures, String source) {

    /** {@code startUs} is NaN for a flow that a trigger starts; {@code id}, {@code trigger} and the done triggers 0 when absent. */
    public record Connection(int src, int dst, int id, double startUs, long sizeBytes, int trigger, int sendDoneTrigger, int recvDoneTrigger) {
        public boolean triggered() {
            return trigger != 0;
        }
    }

    public enum TriggerKind {
        /** Starts its flows the first time it fires. */
        ONESHOT,
        /** Starts its flows each time it fires (a flow runs once: only the first counts). */
        MULTISHOT,
        /** Starts its flows once it has fired {@code count} times. */
        BARRIER
    }

    public record Trigger(int id, TriggerKind kind, int count) {
    }

    /** An aggregation switch's uplink that is cut for the whole run. */
    public record Failure(int aggSwitch, int link) {
    }

    /** Most flows a run takes: flow numbers travel in 16 bits. */
    public static final int MAX_CONNECTIONS = 65_536;

    public static HtsimMatrix load(final Path file) {
        return parse(HtsimTopology.read(file), file.toString());
    }

    /** Parses a connection matrix's text; {@code source} names it in messages. */
    public static HtsimMatrix parse(final String text, final String source) {
        int nodes = -1;
        int connectionsDeclared = -1;
        int triggersDeclared = 0;
        int failuresDeclared = 0;
        final List<Connection> connections = new ArrayList<>();
        final Map<Integer, Trigger> triggers = new HashMap<>();
        final List<Trigger> triggerOrder = new ArrayList<>();
        final Map<Integer, Integer> triggerLine = new HashMap<>();
        final Map<Integer, Integer> idLine = new HashMap<>();
        final List<Failure> failures = new ArrayList<>();
        int line = 0;
        boolean body = false;
        for (final String raw : text.split("\r?\n|\r", -1)) {
            line++;
            final String stripped = raw.strip();
            if (stripped.isEmpty() || stripped.startsWith("#")) {
                continue;
            }
            final Words words = new Words(stripped.split("[ \t]+"), source, line);
            final String first = words.word(0);
            if (first.contains("->")) {
                body = true;
                if (nodes < 0) {
                    throw words.refuse("Nodes must come before the first flow");
                }
                if (connections.size() >= MAX_CONNECTIONS) {
                    throw words.refuse("more than " + MAX_CONNECTIONS + " flows; at most " + MAX_CONNECTIONS + " fit");
                }
                connections.add(connection(words, nodes, idLine, triggerLine));
                continue;
            }
            switch (first) {
                case "Nodes", "Connections", "Triggers", "Failures" -> {
                    if (body) {
                        throw words.refuse(first + " belongs in the header, before the first flow, trigger or failure");
                    }
                    if (words.size() != 2) {
                        throw words.refuse(first + " takes one value, got " + (words.size() - 1));
                    }
                    final int value = words.whole(1, first, first.equals("Nodes") ? 1 : 0, first.equals("Nodes") ? HtsimTopology.MAX_NODES : MAX_CONNECTIONS);
                    switch (first) {
                        case "Nodes" -> nodes = value;
                        case "Connections" -> connectionsDeclared = value;
                        case "Triggers" -> triggersDeclared = value;
                        default -> failuresDeclared = value;
                    }
                }
                case "trigger" -> {
                    body = true;
                    final Trigger trigger = trigger(words);
                    if (triggers.containsKey(trigger.id())) {
                        throw words.refuse("trigger id " + trigger.id() + " is described twice (first on line " + triggerLine.get(trigger.id()) + ")");
                    }
                    triggers.put(trigger.id(), trigger);
                    triggerOrder.add(trigger);
                    triggerLine.put(trigger.id(), line);
                }
                case "failure" -> {
                    body = true;
                    failures.add(failure(words));
                }
                default -> throw words.refuse("unknown word " + InputFiles.quoted(first)
                    + " (Nodes, Connections, Triggers, Failures, SRC->DST ..., trigger ..., failure ...)");
            }
        }
        if (nodes < 0) {
            throw new ConfigException(source + ": Nodes is missing");
        }
        if (connectionsDeclared < 0) {
            throw new ConfigException(source + ": Connections is missing");
        }
        if (connectionsDeclared != connections.size()) {
            throw new ConfigException(source + ": Connections says " + connectionsDeclared + " flows, the file has " + connections.size());
        }
        if (triggersDeclared != triggers.size()) {
            throw new ConfigException(source + ": Triggers says " + triggersDeclared + ", the file describes " + triggers.size());
        }
        if (failuresDeclared != failures.size()) {
            throw new ConfigException(source + ": Failures says " + failuresDeclared + ", the file has " + failures.size());
        }
        int at = 0;
        for (final Connection c : connections) {
            for (final int t : new int[] {c.trigger(), c.sendDoneTrigger(), c.recvDoneTrigger()}) {
                if (t != 0 && !triggers.containsKey(t)) {
                    throw new ConfigException(source + ": flow " + (at + 1) + " (" + c.src() + "->" + c.dst() + ") names trigger " + t
                        + ", which no 'trigger id " + t + "' line describes");
                }
            }
            at++;
        }
        return new HtsimMatrix(nodes, List.copyOf(connections), List.copyOf(triggerOrder), List.copyOf(failures), source);
    }

    private static Connection connection(final Words words, final int nodes, final Map<Integer, Integer> idLine,
        final Map<Integer, Integer> triggerLine) {
        final String pair = words.word(0);
        final int arrow = pair.indexOf("->");
        final int src = words.whole(pair.substring(0, arrow), "the source of " + pair, 0, nodes - 1, "Nodes " + nodes);
        final int dst = words.whole(pair.substring(arrow + 2), "the destination of " + pair, 0, nodes - 1, "Nodes " + nodes);
        if (src == dst) {
            throw words.refuse(pair + " sends to itself");
        }
        int id = 0;
        double start = Double.NaN;
        boolean started = false;
        long size = -1;
        int trigger = 0;
        int sendDone = 0;
        int recvDone = 0;
        boolean message = false;
        for (int i = 1; i < words.size(); i++) {
            final String key = words.word(i);
            if (key.equals("msg")) {
                // uet-htsim's message of a flow: "msg" with or without its number; each such line runs as a flow here.
                message = true;
                if (i + 1 < words.size() && words.word(i + 1).matches("[0-9]{1,9}")) {
                    i++;
                }
                continue;
            }
            if (i + 1 >= words.size()) {
                throw words.refuse(key + " needs a value");
            }
            i++;
            switch (key) {
                case "id" -> id = words.whole(i, key, 1, Integer.MAX_VALUE);
                case "start" -> {
                    start = words.number(i, key, 0, 1e9, "µs");
                    started = true;
                }
                case "size" -> size = words.wholeLong(i, key, 1, 1L << 40);
                case "trigger" -> trigger = words.whole(i, key, 1, Integer.MAX_VALUE);
                case "send_done_trigger" -> sendDone = words.whole(i, key, 1, Integer.MAX_VALUE);
                case "recv_done_trigger" -> recvDone = words.whole(i, key, 1, Integer.MAX_VALUE);
                case "prio" -> words.whole(i, key, 0, Integer.MAX_VALUE);
                default -> throw words.refuse("unknown word " + InputFiles.quoted(key) + " (id, start, size, trigger, send_done_trigger, recv_done_trigger, prio, msg)");
            }
        }
        if (id != 0 && !message) {
            final Integer before = idLine.putIfAbsent(id, words.line);
            if (before != null) {
                throw words.refuse("id " + id + " is given to two flows (first on line " + before + ")");
            }
        }
        if (size < 0) {
            throw words.refuse(pair + " has no size");
        }
        if (started == (trigger != 0)) {
            throw words.refuse(pair + (started ? " has both a start and a trigger" : " has neither a start nor a trigger"));
        }
        if (trigger != 0 && id == 0) {
            throw words.refuse(pair + " is started by trigger " + trigger + " and needs an id");
        }
        return new Connection(src, dst, id, started ? start : Double.NaN, size, trigger, sendDone, recvDone);
    }

    private static Trigger trigger(final Words words) {
        int id = 0;
        TriggerKind kind = null;
        int count = 0;
        for (int i = 1; i < words.size(); i++) {
            final String key = words.word(i);
            switch (key) {
                case "id" -> id = words.whole(++i, key, 1, Integer.MAX_VALUE);
                case "count" -> count = words.whole(++i, key, 0, MAX_CONNECTIONS);
                case "oneshot", "multishot", "barrier" -> {
                    if (kind != null) {
                        throw words.refuse("the trigger is " + kind.name().toLowerCase(java.util.Locale.ROOT) + " and " + key);
                    }
                    kind = TriggerKind.valueOf(key.toUpperCase(java.util.Locale.ROOT));
                }
                default -> throw words.refuse("unknown word " + InputFiles.quoted(key) + " (id, count, oneshot, multishot, barrier)");
            }
        }
        if (id == 0) {
            throw words.refuse("trigger has no id");
        }
        if (kind == null) {
            throw words.refuse("trigger " + id + " has no type: oneshot, multishot or barrier");
        }
        if (kind == TriggerKind.BARRIER && count < 1) {
            throw words.refuse("barrier trigger " + id + " needs a count of at least 1");
        }
        return new Trigger(id, kind, count);
    }

    private static Failure failure(final Words words) {
        int switchId = -1;
        int link = -1;
        boolean agg = false;
        for (int i = 1; i < words.size(); i++) {
            final String key = words.word(i);
            switch (key) {
                case "switch_type" -> {
                    final String type = words.word(++i);
                    if (!type.equals("AGG")) {
                        throw words.refuse("switch_type " + type + ": only an aggregation switch's uplink (AGG) can fail");
                    }
                    agg = true;
                }
                case "switch_id" -> switchId = words.whole(++i, key, 0, 65_535);
                case "link_id" -> link = words.whole(++i, key, 0, 65_535);
                default -> throw words.refuse("unknown word " + InputFiles.quoted(key) + " (switch_type, switch_id, link_id)");
            }
        }
        if (!agg || switchId < 0 || link < 0) {
            throw words.refuse("failure needs switch_type AGG, switch_id and link_id");
        }
        return new Failure(switchId, link);
    }

    /** A line's words, and refusals that name the file, the line and the word. */
    private static final class Words {
        private final String[] words;
        private final String source;
        final int line;

        Words(final String[] words, final String source, final int line) {
            this.words = words;
            this.source = source;
            this.line = line;
        }

        int size() {
            return words.length;
        }

        String word(final int i) {
            if (i >= words.length) {
                throw refuse(InputFiles.quoted(words[i - 1]) + " needs a value");
            }
            return words[i];
        }

        ConfigException refuse(final String message) {
            return new ConfigException(source + " line " + line + ": " + message);
        }

        int whole(final int i, final String key, final int min, final int max) {
            return whole(word(i), key, min, max, null);
        }

        int whole(final String text, final String key, final int min, final int max, final String bound) {
            return (int) wholeLong(text, key, min, max, bound);
        }

        long wholeLong(final int i, final String key, final long min, final long max) {
            return wholeLong(word(i), key, min, max, null);
        }

        private long wholeLong(final String text, final String key, final long min, final long max, final String bound) {
            final long value;
            try {
                value = io.trimswitch.config.WholeNumbers.parseLong(text);
            } catch (final NumberFormatException e) {
                if (io.trimswitch.config.WholeNumbers.isWholeNumber(text)) {
                    // Digits past a long's range: too far out, not a word.
                    throw refuse(key + " is too " + (text.startsWith("-") ? "small (min " + min : "large (max " + max) + "), got "
                        + (text.length() > 40 ? text.substring(0, 40) + "…" : text));
                }
                throw refuse(key + " takes a whole number, got " + InputFiles.quoted(text));
            }
            if (value < min || value > max) {
                throw refuse(key + " is " + value + ", outside " + min + ".." + max + (bound == null ? "" : " (" + bound + ")"));
            }
            return value;
        }

        double number(final int i, final String key, final double min, final double max, final String unit) {
            final String text = word(i);
            final double value;
            try {
                value = Double.parseDouble(text);
            } catch (final NumberFormatException e) {
                throw refuse(key + " takes a number of " + unit + ", got " + InputFiles.quoted(text));
            }
            if (!(value >= min && value <= max)) {
                throw refuse(key + " is " + InputFiles.cut(text) + ", outside " + (long) min + ".." + (long) max + " " + unit);
            }
            return value;
        }
    }
}
