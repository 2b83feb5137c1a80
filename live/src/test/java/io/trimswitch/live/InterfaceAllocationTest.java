package io.trimswitch.live;

import io.trimswitch.config.Settings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.trimswitch.live.HostCommands.run;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A switch on interface ports makes no garbage in steady state: while two hosts in network namespaces flood pings
 * through it, on either port kind, its pipeline thread allocates nothing per forwarded frame, as the JVM counts the
 * thread's allocations. Needs root: elsewhere skipped.
 */
@Tag("host-timing")
class InterfaceAllocationTest {
    /** What a window of traffic may allocate: nothing, but for a stray JIT deoptimisation's boxes. */
    private static final long BYTES_PER_WINDOW = 1024;
    private final String tag = "tsal" + ProcessHandle.current().pid() % 100_000;

    @TempDir
    Path dir;

    private LiveSwitch live;

    @AfterEach
    void remove() throws Exception {
        if (live != null) {
            live.stop();
        }
        for (int host = 0; host < 2; host++) {
            run("ip", "link", "del", tag + "p" + host);
            run("ip", "netns", "del", tag + "h" + host);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"af_packet", "af_xdp"})
    void thePipelineThreadAllocatesNothingWhileForwarding(final String kind) throws Exception {
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "this JVM does not count allocations per thread");
        assumeTrue("root".equals(System.getProperty("user.name")), "network namespaces and interface ports need root");
        threads.setThreadAllocatedMemoryEnabled(true);
        wire();
        final List<Settings.Port> ports = new ArrayList<>();
        for (int host = 0; host < 2; host++) {
            ports.add(Settings.Port.DEFAULTS.withInterfaceName(tag + "p" + host).withKind(kind));
        }
        Settings settings = Settings.DEFAULTS.withPorts(ports);
        settings = settings.withMetrics(x -> x.withAddress(null).withCountersFile(dir.resolve("switch.counters").toString()));
        live = new LiveSwitch(settings);
        try {
            live.start();
        } catch (final IllegalStateException e) {
            assumeTrue(!e.getMessage().contains("CONFIG_XDP_SOCKETS") && !e.getMessage().contains("no BPF"), e.getMessage());
            throw e;
        }
        Thread pipeline = null;
        for (final Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().contains("pipelines")) {
                pipeline = thread;
            }
        }
        assertTrue(pipeline != null, "a pipeline thread runs");
        // Warm: the JIT compiles the paths, the learned table holds both hosts. Then windows until one allocates nothing.
        assumeTrue(flood(3000) >= 2000, "host too slow: fewer than 2000 of 3000 pings crossed while warming up");
        long allocated = Long.MAX_VALUE;
        int windows = 0;
        int crossed = 0;
        while (allocated >= BYTES_PER_WINDOW && windows < 6) {
            final long before = threads.getThreadAllocatedBytes(pipeline.threadId());
            crossed = flood(2000);
            allocated = threads.getThreadAllocatedBytes(pipeline.threadId()) - before;
            windows++;
        }
        assumeTrue(crossed >= 1000, "host too slow: " + crossed + " of 2000 pings crossed");
        assertTrue(allocated < BYTES_PER_WINDOW, kind + ": " + crossed + " pings each way allocated " + allocated + " bytes on the pipeline thread, after "
            + windows + " windows");
    }

    /** Host 0 and host 1 in namespaces of their own, each on a veth whose other end is a port here. */
    private void wire() throws Exception {
        for (int host = 0; host < 2; host++) {
            final String ns = tag + "h" + host;
            assumeTrue(run("ip", "netns", "add", ns) == 0, "cannot make a network namespace here");
            run("ip", "netns", "exec", ns, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1");
            run("ip", "link", "add", tag + "p" + host, "type", "veth", "peer", "name", "eth0", "netns", ns);
            run("sysctl", "-qw", "net.ipv6.conf." + tag + "p" + host + ".disable_ipv6=1");
            run("ip", "link", "set", tag + "p" + host, "up");
            run("ip", "netns", "exec", ns, "ip", "addr", "add", "10.215.0." + (host + 1) + "/24", "dev", "eth0");
            run("ip", "netns", "exec", ns, "ip", "link", "set", "eth0", "up");
            // Behind an af_xdp port, which carries no offload header, a host fills its own checksums.
            run("ip", "netns", "exec", ns, "ethtool", "-K", "eth0", "tx", "off");
        }
    }

    /** {@code count} pings from host 0 to host 1, as fast as the answers come; how many were answered. */
    private int flood(final int count) throws Exception {
        final Process ping = new ProcessBuilder("ip", "netns", "exec", tag + "h0", "ping", "-f", "-q", "-c", Integer.toString(count), "-w", "20",
            "10.215.0.2").redirectErrorStream(true).start();
        final String output = new String(ping.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        ping.waitFor();
        final java.util.regex.Matcher received = java.util.regex.Pattern.compile("([0-9]+) received").matcher(output);
        return received.find() ? Integer.parseInt(received.group(1)) : 0;
    }
}
