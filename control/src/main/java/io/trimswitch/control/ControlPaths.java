package io.trimswitch.control;

import java.nio.file.Path;

/**
 * Where a switch's control socket is: found the way {@code stats} finds its counters file. One switch in a network
 * namespace keeps the default counters file, /run/trimswitch/trimswitch-NETNS.counters, and so its socket is
 * /run/trimswitch/trimswitch-NETNS.ctl; a switch given its own counters file (several in one namespace, as Mininet runs
 * them) gets the socket named after that file.
 */
public final class ControlPaths {
    public static final Path RUN_DIRECTORY = io.trimswitch.live.settings.LiveSettings.runDirectory();
    private static final String COUNTERS_SUFFIX = ".counters";

    private ControlPaths() {
    }

    /** The control socket of the switch whose counters file is {@code countersFile}. */
    public static Path forCounters(final Path countersFile) {
        String name = countersFile.getFileName().toString();
        if (name.endsWith(COUNTERS_SUFFIX) && name.length() > COUNTERS_SUFFIX.length()) {
            name = name.substring(0, name.length() - COUNTERS_SUFFIX.length());
        }
        return io.trimswitch.live.settings.LiveSettings.findInRunDirectory(name + ".ctl");
    }
}
