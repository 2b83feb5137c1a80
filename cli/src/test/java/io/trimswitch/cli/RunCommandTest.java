package io.trimswitch.cli;

import io.trimswitch.config.Settings;
import io.trimswitch.live.LiveSwitch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code trimswitch run}: what cannot make a switch is refused in one line with exit 2. */
class RunCommandTest {
    @TempDir
    Path dir;

    @Test
    void badRunConfigurationsAreOneClearLine() throws IOException {
        assertRunFails("ports:\n  - bind: 127.0.0.1:4790\n  - bind: 127.0.0.1:4790\n", "ports[1].bind 127.0.0.1:4790 clashes with ports[0].bind");
        assertRunFails("ports:\n  - bind: 127.0.0.1\n", "ports[0].bind must be host:port");
        assertRunFails("ports:\n  - bind: no.such.host.invalid:4790\n", "unknown host");
        assertRunFails("ports:\n  - bind: 127.0.0.1:4790\n    vnii: 3\n", "unknown key");
        assertRunFails("fabric:\n  portRateGbps: 0\nports:\n  - bind: 127.0.0.1:4790\n", "fabric.portRateGbps must be 0.001..10000 Gb/s, got 0.0");
        assertRunFails("mechanism: tofino\n", "ports: a switch to run needs at least one port");
        assertRunFails("ports:\n  - bind: 127.0.0.1:4790\nforwarding:\n  mode: hub\n", "forwarding.mode must be one of l2, routed, subnet");
        assertRunFails("ports:\n  - bind: 127.0.0.1:4790\n    rateGbps: 0\n", "ports[0].rateGbps must be 0.001..10000 Gb/s, got 0.0");
        assertRunFails("ports:\n  - bind: '[:4790'\n", "ports[0].bind must be host:port or [IPv6]:port");
        assertRunFails("ports:\n  - bind: 127.0.0.1:4790\nmetrics:\n  countersFile: ''\n", "metrics.countersFile must name a file, got an empty name");
        assertRunFails("ports:\n  - bind: 0:4790\n", "ports[0].bind: '0' means every interface; write 0.0.0.0 or [::]");
        assertRunFails("ports:\n  - bind: 127.0.0.1:4790\nmetrics:\n  address: 0:9464\n", "metrics.address: '0' means every interface");
        assertRunFails("ports:\n  - bind: 127.0.0.1:4790\nmetrics:\n  address: '[::ffff:0.0.0.0]:9464'\n", "means every interface");
        assertRunFails("ports:\n  - bind: 127.0.0.1:4790\nrealtime:\n  pipelineThreads: 5\n", "realtime.pipelineThreads must be at most 4");
        final String routed = "ports:\n  - bind: 127.0.0.1:4790\nforwarding:\n  mode: routed\n  routes:\n    - {prefix: '";
        assertRunFails(routed + "fd00::/129', port: 0, nextHopMac: '02:00:00:00:00:01'}\n", "forwarding.routes[0].prefix length must be 0..128, got 129");
        assertRunFails(routed + "fd00:::1/64', port: 0, nextHopMac: '02:00:00:00:00:01'}\n", "forwarding.routes[0].prefix: 'fd00:::1' is not an IPv6 address");
    }

    private void assertRunFails(final String yaml, final String expected) throws IOException {
        final Path config = dir.resolve("switch-" + Math.abs(yaml.hashCode()) + ".yaml");
        Files.writeString(config, yaml);
        final Cli.Result run = Cli.trimswitch("run", "--config", config.toString(), "--duration-s", "1");
        assertEquals(2, run.exit(), yaml + run.out() + run.err());
        assertEquals(1, run.err().strip().lines().count(), run.err());
        assertTrue(run.err().contains(expected), "expected '" + expected + "' in " + run.err());
    }

    @Test
    void aCountersFileAnotherRunningSwitchUsesIsRefusedInOneLine() throws IOException {
        final Path counters = dir.resolve("taken.counters");
        final Settings first = Settings.DEFAULTS.withPorts(java.util.List.of(Settings.Port.DEFAULTS.withBind("127.0.0.1:0").withRemote("127.0.0.1:9")))
            .withMetrics(x -> x.withAddress(null).withCountersFile(counters.toString()));
        try (LiveSwitch running = new LiveSwitch(first)) {
            running.start();
            final Path config = dir.resolve("second.yaml");
            Files.writeString(config, "ports:\n  - {bind: 127.0.0.1:0, remote: 127.0.0.1:9}\nmetrics:\n  address: null\n");
            final Cli.Result second = Cli.trimswitch("run", "--config", config.toString(), "--counters", counters.toString(), "--duration-s", "1");
            assertEquals(2, second.exit(), second.out() + second.err());
            assertEquals("trimswitch: metrics.countersFile: counters file " + counters + " is in use by another switch of this process\n", second.err());
            assertTrue(Files.exists(counters), "the running switch keeps its file");
        }
        assertTrue(!Files.exists(counters), "and removes it when it stops");
    }
}
