package io.trimswitch.live;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterTotals;
import io.trimswitch.dataplane.counters.CounterType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.trimswitch.live.HostCommands.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A port that {@code ctl add-port} gives a running switch has its gauges in the counters file, as the ports it started
 * with have: its queue depths and the kernel's ring drops, sampled by the gauges' thread. Needs root (a veth pair, the
 * interface locks under /run): elsewhere skipped.
 */
class AddedPortGaugesTest {
    private final String tag = "tsag" + ProcessHandle.current().pid() % 100_000;

    @TempDir
    Path dir;

    private LiveSwitch live;

    @AfterEach
    void remove() throws Exception {
        if (live != null) {
            live.stop();
        }
        run("ip", "link", "del", tag + "a");
    }

    @Test
    void aPortAddedWhileTheSwitchRunsGetsItsGauges() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")) && Files.isWritable(io.trimswitch.interfaces.InterfaceLocks.DIRECTORY.getParent()),
            "interface ports need root");
        assumeTrue(run("ip", "link", "add", tag + "a", "type", "veth", "peer", "name", tag + "b") == 0, "cannot make a veth pair here");
        run("ip", "link", "set", tag + "a", "up");
        run("ip", "link", "set", tag + "b", "up");
        final Settings settings = Settings.DEFAULTS.withFabric(x -> x.withPipelines(1).withPortsPerPipeline(4))
            .withPorts(List.of(Settings.Port.DEFAULTS.withInterfaceName(tag + "a")))
            .withMetrics(x -> x.withAddress(null).withCountersFile(dir.resolve("switch.counters").toString()));
        live = new LiveSwitch(settings);
        live.start();
        assertTrue(gauged(0), "a port the switch started with has its gauges");
        assertFalse(gauged(1), "port 1 has none before it is added");

        final String added = live.addPort(1, tag + "b");
        assertTrue(added.startsWith("port 1 added on " + tag + "b"), added);
        assertTrue(gauged(1), "the added port has its gauges");
        final CounterTotals totals = CounterTotals.read(live.counters().reader());
        assertEquals(0L, totals.byName(1, CounterType.DROPS).get("ringOverflow"), "the kernel's ring drops of the added port, sampled");
        assertEquals(List.of(0, 1), live.stats().stream().map(LiveSwitch.PortStats::port).toList());
    }

    /** Whether the counters file holds port {@code port}'s gauges: its data queue's depth, now and at most. */
    private boolean gauged(final int port) {
        final CounterTotals totals = CounterTotals.read(live.counters().reader());
        return totals.has(port, CounterType.DATA_QUEUE_DEPTH) && totals.has(port, CounterType.DATA_QUEUE_MAX_DEPTH);
    }
}
