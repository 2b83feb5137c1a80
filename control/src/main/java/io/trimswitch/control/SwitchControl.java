package io.trimswitch.control;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;
import io.trimswitch.config.SettingsEdit;
import io.trimswitch.config.SettingsFiles;
import io.trimswitch.live.settings.LiveSettings;
import io.trimswitch.live.LiveSwitch;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The commands a running switch takes on its control socket: {@code show}, {@code set KEY VALUE}, {@code reload},
 * {@code add-port N@IFACE [--rate-gbps R]}, {@code del-port N}, {@code capture PORT start FILE|stop} and {@code stop}.
 * A change is checked whole before anything is applied: a value the settings file would refuse, or a key that cannot
 * change while the switch runs, is refused in one line and the switch goes on as it was. Counters keep counting.
 * Only the control socket's thread calls it, so the settings in force have one writer.
 */
public final class SwitchControl implements ControlCommands {
    /** The keys a running switch can change: trimming, the trim control loop's timing, meters' and ports' rates. */
    public static final List<String> LIVE_KEYS = List.of("trim.sizeBytes", "trim.dscp", "trim.trimmableDscp", "control.t0Us", "control.t1Us",
        "control.halftimisticRateGbps", "control.pessimisticRateGbps", "control.meterBurstBytes", "fabric.portRateGbps", "ports.N.rateGbps");
    /** The same as a pattern: N, a port's number. */
    private static final Pattern LIVE = Pattern.compile(String.join("|", LIVE_KEYS).replace(".N.", "#").replace(".", "\\.").replace("#", "\\.[0-9]+\\."));
    /** Sections only a virtual-time run reads: {@code show} leaves them out, {@code show --all} shows them. */
    private static final java.util.Set<String> NOT_LIVE = java.util.Set.of("clock", "workload", "transport");
    /** Every command, with what it does: the unknown-command refusal and {@code ctl help} list them. */
    public static final List<String[]> HELP = List.of(
        new String[] {"show", "the ports and the settings a live switch uses"},
        new String[] {"show --all", "the ports and every setting, the simulator's too"},
        new String[] {"show macs", "the learned addresses: port, MAC, age in seconds (static ones too)"},
        new String[] {"set KEY VALUE", "change a setting that may change while it runs (the keys below)"},
        new String[] {"reload", "read the config file again and apply what changed (the keys above only)"},
        new String[] {"add-port N@IFACE [--rate-gbps R] [--wait]", "attach port N to an existing interface (--wait: one still to come)"},
        new String[] {"del-port N", "detach interface port N"},
        new String[] {"capture PORT start FILE", "write port PORT's frames to a pcapng file"},
        new String[] {"capture PORT stop", "stop that capture"},
        new String[] {"stop", "stop the switch as SIGTERM does"});
    static final String COMMANDS = "show [macs|--all], set KEY VALUE, reload, add-port N@IFACE [--rate-gbps R] [--wait], del-port N, capture PORT start FILE,"
        + " capture PORT stop, stop";

    private final LiveSwitch live;
    /** The config file (if any) and the command line read again, as at start. */
    private final Supplier<Settings> reread;
    /** Stops the switch as SIGTERM does: it sends what has left, counts what is still inside, and exits 0. */
    private final Runnable stop;
    private Settings inForce;

    public SwitchControl(final LiveSwitch live, final Supplier<Settings> reread, final Runnable stop) {
        this.live = live;
        this.reread = reread;
        this.stop = stop;
        this.inForce = live.settings();
    }

    @Override
    public ControlReply run(final List<String> words) {
        final String command = words.getFirst();
        return switch (command) {
            case "show" -> {
                if (words.size() == 2 && "macs".equals(words.get(1))) {
                    yield macs();
                }
                if (words.size() > 2 || words.size() == 2 && !"--all".equals(words.get(1))) {
                    throw new ConfigException("usage: show | show --all | show macs");
                }
                yield show(words.size() == 2);
            }
            case "set" -> {
                arguments(words, 2, "set KEY VALUE");
                yield change("set " + words.get(1), edited("set " + words.get(1), () -> SettingsEdit.set(inForce, words.get(1), words.get(2))));
            }
            case "reload" -> {
                arguments(words, 0, "reload");
                try {
                    yield change("reload", edited("reload", reread));
                } catch (final ConfigException e) {
                    throw ReloadRefusals.forCaller(e);
                }
            }
            case "capture" -> capture(words);
            case "add-port" -> addPort(words);
            case "del-port" -> {
                arguments(words, 1, "del-port N");
                yield ControlReply.line(live.removePort(port(words.get(1), "del-port: N")));
            }
            case "stop" -> {
                arguments(words, 0, "stop");
                stop.run();
                yield ControlReply.line("stopping");
            }
            default -> throw new ConfigException("unknown command '" + command + "'; commands: " + COMMANDS);
        };
    }

    /** {@code text} as a port number; else refused in one line that begins with {@code what} ("del-port: N"). */
    private static int port(final String text, final String what) {
        try {
            return io.trimswitch.config.WholeNumbers.parseInt(text);
        } catch (final NumberFormatException e) {
            throw new ConfigException(what + " must be a port number, got '" + text + "'");
        }
    }

    /**
     * add-port N@IFACE [--rate-gbps R] [--wait]: a removed interface port on another interface, or the next port number
     * (one the switch did not start with) on IFACE, at its rate or R. An interface that does not exist is refused, as
     * {@code run -i} refuses it, unless {@code --wait}: the port then waits for it to appear.
     */
    private ControlReply addPort(final List<String> words) {
        final String usage = "usage: add-port N@IFACE [--rate-gbps R] [--wait]";
        String rate = null;
        boolean wait = false;
        for (int i = 2; i < words.size(); i++) {
            if ("--wait".equals(words.get(i)) && !wait) {
                wait = true;
            } else if ("--rate-gbps".equals(words.get(i)) && rate == null && i + 1 < words.size()) {
                rate = words.get(++i);
            } else {
                throw new ConfigException(usage);
            }
        }
        if (words.size() < 2) {
            throw new ConfigException(usage);
        }
        final String[] parts = words.get(1).split("@", -1);
        if (parts.length != 2 || parts[1].isEmpty()) {
            throw new ConfigException("add-port: expected N@IFACE, got '" + words.get(1) + "'");
        }
        final int port = port(parts[0], "add-port: N");
        final String name = "'" + parts[1].replace("'", "''") + "'";
        Settings to;
        if (port >= 0 && port < inForce.ports().size()) {
            live.interfacePortOf(port, "add-port");
            // The settings with the port on its new interface (and rate), checked whole before the port moves.
            to = validated("add-port", SettingsEdit.set(inForce, "ports." + port + ".interface", name));
        } else if (port == inForce.ports().size()) {
            // A port the switch did not start with: one more in the settings in force, whose ports are numbered in order.
            to = validated("add-port", SettingsEdit.append(inForce, "ports", "{interface: " + name + "}"));
        } else {
            throw new ConfigException("add-port: port " + port + " is neither a port of this switch (0.." + (inForce.ports().size() - 1)
                + ") nor the next new one (" + inForce.ports().size() + ")");
        }
        if (rate != null) {
            to = validated("add-port", SettingsEdit.set(to, "ports." + port + ".rateGbps", rate));
        }
        if (!wait && LiveSettings.hasInterfacePorts(inForce) && !io.trimswitch.interfaces.InterfaceNames.exists(parts[1])) {
            throw new ConfigException("add-port: interface " + parts[1] + " does not exist here (ip link show); nothing was changed"
                + " (add-port " + words.get(1) + " --wait adds a port that waits for it)");
        }
        final String added = live.addPort(port, parts[1]);
        live.retune(inForce, to);
        inForce = to;
        return ControlReply.line(added);
    }

    private ControlReply capture(final List<String> words) {
        final String usage = "usage: capture PORT start FILE [--overwrite] | capture PORT stop";
        if (words.size() < 3) {
            throw new ConfigException(usage);
        }
        final int port = port(words.get(1), "capture: PORT");
        final boolean overwrite = words.size() == 5 && "--overwrite".equals(words.get(4));
        if ("start".equals(words.get(2)) && (words.size() == 4 || overwrite)) {
            final java.nio.file.Path file;
            try {
                file = java.nio.file.Path.of(words.get(3));
            } catch (final java.nio.file.InvalidPathException e) {
                throw new ConfigException("capture: '" + words.get(3) + "' is not a file name: " + e.getReason());
            }
            if (!file.isAbsolute()) {
                throw new ConfigException("capture: FILE must be an absolute path (ctl makes it one), got '" + file + "'");
            }
            // Written with the rights of whoever asked, never the switch's: a member of the control group is not root.
            live.startCapture(port, file, ControlCaller.current(), overwrite);
            return ControlReply.line("capturing port " + port + " to " + file);
        }
        if ("stop".equals(words.get(2)) && words.size() == 3) {
            final io.trimswitch.live.capture.LiveCapture capture = live.stopCapture(port);
            if (capture == null) {
                throw new ConfigException("capture: port " + port + " is not being captured");
            }
            if (capture.failure() != null) {
                throw new ConfigException("capture: port " + port + ": stopped, but " + capture.failure()
                    + "; the file is incomplete (" + capture.lost() + " frames lost after the failure)");
            }
            final String text = "port " + port + ": " + capture.written() + " frames written to " + capture.file()
                + (capture.dropped() > 0 ? ", " + capture.dropped() + " not (the file fell behind)" : "");
            return new ControlReply(text, Map.of("port", port, "file", capture.file().toString(), "written", capture.written(),
                "dropped", capture.dropped()));
        }
        throw new ConfigException(usage);
    }

    /** The settings {@code next} makes; a value it cannot read is refused in one line that begins with {@code what}. */
    private static Settings edited(final String what, final Supplier<Settings> next) {
        try {
            return next.get();
        } catch (final ConfigException e) {
            // SettingsEdit's own refusals ("set: no setting ...") name the command already.
            throw e.getMessage().startsWith("set") ? e : new ConfigException(what + ": " + e.getMessage() + "; nothing was changed");
        }
    }

    /** {@code next} checked as a running switch's settings; refused in one line, beginning with {@code what}, when it is not. */
    private static Settings validated(final String what, final Settings next) {
        try {
            return LiveSettings.validate(next);
        } catch (final ConfigException e) {
            throw new ConfigException(what + ": " + e.getMessage() + "; nothing was changed");
        }
    }

    private static void arguments(final List<String> words, final int count, final String usage) {
        if (words.size() != count + 1) {
            throw new ConfigException("usage: " + usage);
        }
    }

    /** Applies {@code next} if every key it changes may change while running; else refuses it all, naming those keys. */
    private ControlReply change(final String what, final Settings next) {
        final Settings to = validated(what, next);
        final List<String> changed = SettingsEdit.changedKeys(inForce, to);
        final List<String> fixed = changed.stream().filter(key -> !LIVE.matcher(key).matches()).toList();
        if (!fixed.isEmpty()) {
            throw new ConfigException(what + ": " + String.join(", ", fixed) + " cannot"
                + " change while the switch runs (restart it for that); nothing was changed");
        }
        final Settings from = inForce;
        live.retune(inForce, to);
        inForce = to;
        final String text;
        if (changed.isEmpty()) {
            text = what + ": nothing to change";
        } else if ("reload".equals(what)) {
            // The file's value may be a change, or the one a set had replaced: saying which values were in force says both.
            final List<String> moves = new ArrayList<>();
            for (final String key : changed) {
                moves.add(key + " " + SettingsEdit.valueOf(from, key) + " -> " + SettingsEdit.valueOf(to, key));
            }
            text = "reload: " + String.join(", ", moves) + " (the file's values)";
        } else {
            text = what + ": applied " + String.join(", ", changed);
        }
        return new ControlReply(text, Map.of("changed", changed));
    }

    private ControlReply macs() {
        final io.trimswitch.live.LiveSwitch.MacTable table = live.macs();
        final List<io.trimswitch.live.shard.LearnedMac> macs = table.macs();
        final StringBuilder text = new StringBuilder(String.format("%-5s %-17s %8s%n", "port", "MAC", "age s"));
        final List<Map<String, Object>> rows = new ArrayList<>();
        for (final io.trimswitch.live.shard.LearnedMac mac : macs) {
            final String age = mac.isStatic() ? "static" : String.format("%.1f", mac.ageNanos() / 1e9);
            text.append(String.format("%-5d %-17s %8s%n", mac.port(), mac.address(), age));
            final Map<String, Object> row = new LinkedHashMap<>();
            row.put("port", mac.port());
            row.put("mac", mac.address());
            row.put("ageSeconds", mac.isStatic() ? null : mac.ageNanos() / 1e9);
            row.put("static", mac.isStatic());
            rows.add(row);
        }
        if (inForce.forwarding().mode() != Settings.ForwardingMode.L2) {
            text.append("(forwarding is ").append(inForce.forwarding().mode().label()).append(": the switch learns no addresses)\n");
        } else {
            text.append(macs.size()).append(macs.size() == 1 ? " address" : " addresses").append(", aging after ")
                .append(rate(inForce.forwarding().agingSeconds())).append(" s, at most ").append(inForce.forwarding().macTableSize())
                .append(" learned\n");
            if (table.notLearned() > 0) {
                // A full table: a host sending from ever new addresses, or a table too small for the network.
                text.append(table.notLearned()).append(" sources not learned since the start: the table was full (forwarding.macTableSize)\n");
            }
        }
        return new ControlReply(text.toString().stripTrailing(), Map.of("macs", rows, "notLearned", table.notLearned()));
    }

    private ControlReply show(final boolean all) {
        final List<LiveSwitch.PortView> ports = live.portViews(inForce);
        final StringBuilder text = new StringBuilder(String.format("%-5s %-10s %-32s %-6s %10s %9s %7s%n", "port", "kind", "attached to", "state", "rate Gb/s",
            "pipeline", "thread"));
        final List<Map<String, Object>> portData = new ArrayList<>();
        for (final LiveSwitch.PortView port : ports) {
            // A port of several receive queues: the thread of each, in queue order (0,1: queue 1 on thread 1).
            text.append(String.format("%-5d %-10s %-32s %-6s %10s %9d %7s%n", port.port(), port.kind(), port.attachment(), port.state(),
                rate(port.rateGbps()),
                port.pipeline(), port.queueThreads().stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(","))));
            final Map<String, Object> row = new LinkedHashMap<>();
            row.put("port", port.port());
            row.put("kind", port.kind());
            row.put("attachedTo", port.attachment());
            row.put("state", port.state());
            row.put("rateGbps", port.rateGbps());
            row.put("pipeline", port.pipeline());
            row.put("thread", port.thread());
            row.put("queueThreads", port.queueThreads());
            portData.add(row);
        }
        final String yaml = SettingsFiles.toYaml(inForce);
        final String settings = all ? yaml : liveSections(yaml);
        text.append(all ? "settings in force:\n" : "settings in force (show --all adds the simulator's: " + String.join(", ", NOT_LIVE.stream().sorted().toList()) + "):\n")
            .append(settings.startsWith("---\n") ? settings.substring(4) : settings);
        final Map<String, Object> data = new LinkedHashMap<>();
        data.put("ports", portData);
        data.put("settings", all ? inForce : SettingsFiles.tree(settings, "settings"));
        return new ControlReply(text.toString().stripTrailing(), data);
    }

    /** The settings file's text without the sections a live switch does not read (each a key at the margin and its indented lines). */
    private static String liveSections(final String yaml) {
        final StringBuilder kept = new StringBuilder();
        boolean skipping = false;
        for (final String line : yaml.split("\n", -1)) {
            if (!line.isEmpty() && !Character.isWhitespace(line.charAt(0)) && !line.startsWith("-")) {
                final int colon = line.indexOf(':');
                skipping = colon > 0 && NOT_LIVE.contains(line.substring(0, colon));
            }
            if (!skipping) {
                kept.append(line).append('\n');
            }
        }
        return kept.toString();
    }

    private static String rate(final double gbps) {
        return java.math.BigDecimal.valueOf(gbps).stripTrailingZeros().toPlainString();
    }
}
