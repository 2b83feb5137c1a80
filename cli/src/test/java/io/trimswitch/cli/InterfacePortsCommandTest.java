package io.trimswitch.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code trimswitch run -i PORT@IFACE} and {@code ports[].interface}: what a user gets wrong is refused in one line
 * with exit 2, before any port is opened or, for an interface that cannot be opened, before the switch runs.
 */
class InterfacePortsCommandTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "run                                   | run needs ports: -i 0@veth0",
        "run -i veth0                          | -i must be PORT@IFACE, like 0@veth0, got 'veth0'",
        "run -i 0@                             | -i must be PORT@IFACE",
        "run -i @veth0                         | -i must be PORT@IFACE",
        "run -i x@veth0                        | -i x@veth0: 'x' is not a port number",
        "run -i 99999@veth0                    | port must be 0..4095, got 99999",
        "run -i 1@veth1                        | -i: port 0 is missing",
        "run -i 0@veth0 -i 1@veth0             | ports[1].interface veth0 is already ports[0]",
        "run -i 0@veth0 -i 0@veth1             | -i 0@veth1: port 0 is already given by -i 0@veth0",
        "run -i 0@veth0 -i 1@veth1 -i 1@veth1  | -i 1@veth1: port 1 is already given by -i 1@veth1",
        "run --config TWICE                    | ports[1].interface veth0 is already ports[0]",
        "run -i 0@a/b                          | ports[0].interface 'a/b' is not an interface name",
        "run -i 0@sixteen-characters           | ports[0].interface 'sixteen-characters' is not an interface name",
        "run -i 0@no-such-if0 --metrics off    | port 0: interface no-such-if0 does not exist here",
        "run -i 0@lo --idle bogus              | realtime.idle",
        "run --config BOTH                     | ports[0] has both interface and bind/remote/remotePort",
        "run --config FILE -i 2@veth2          | -i: port 1 is missing",
        "run -i 0@veth0:af_dpdk                | ports[0].kind must be one of af_packet, af_xdp, got 'af_dpdk'",
        "run -i 0@veth0:                       | ports[0].kind must be one of af_packet, af_xdp, got ''",
        "run -i 0@veth0 --port-kind xdp        | realtime.portKind must be one of af_packet, af_xdp, got 'xdp'",
        "run --config KINDUDP                  | ports[0].kind af_xdp is for a port on an interface; a UDP port has neither kind nor queues",
        "run --config QUEUES                   | ports[0].queues must be 1..64, got -1",
        "run --config QUEUES --port-kind af_xdp -i 1@veth1 | ports[0].queues must be 1..64, got 0",
        "run -i 0@no-such-if0:af_xdp --metrics off | port 0: interface no-such-if0 does not exist here"})
    void isRefusedInOneLine(final String commandLine, final String expected) throws IOException {
        Files.writeString(dir.resolve("both.yaml"), "ports:\n  - {interface: veth0, bind: 127.0.0.1:0}\n");
        Files.writeString(dir.resolve("one.yaml"), "ports:\n  - {interface: veth0}\n");
        Files.writeString(dir.resolve("twice.yaml"), "ports:\n  - {interface: veth0}\n  - {interface: veth0}\n");
        Files.writeString(dir.resolve("kindudp.yaml"), "ports:\n  - {bind: 127.0.0.1:0, kind: af_xdp}\n");
        Files.writeString(dir.resolve("queues.yaml"), commandLine.contains("af_xdp") ? "ports:\n  - {interface: veth0, queues: 0}\n"
            : "ports:\n  - {interface: veth0, queues: -1}\n");
        final String[] args = commandLine.strip().replace("BOTH", dir.resolve("both.yaml").toString())
            .replace("FILE", dir.resolve("one.yaml").toString())
            .replace("TWICE", dir.resolve("twice.yaml").toString()).replace("KINDUDP", dir.resolve("kindudp.yaml").toString())
            .replace("QUEUES", dir.resolve("queues.yaml").toString()).split("\\s+");
        final Cli.Result result = Cli.trimswitch(args);
        assertEquals(TrimswitchCommand.EXIT_USAGE, result.exit(), commandLine + "\n" + result.out() + result.err());
        assertEquals(1, result.err().strip().lines().count(), "one line: " + result.err());
        assertTrue(result.err().contains(expected), "expected '" + expected + "' in: " + result.err());
        assertFalse(result.err().contains("Exception"), "no exception's name: " + result.err());
    }

    /**
     * As root, on a veth: an interface that is down is refused by name, so is one the tool may not open (no CAP_NET_RAW),
     * and one that is up runs the switch until told to stop.
     */
    @Test
    void anInterfaceThatIsDownIsRefusedAndOneThatIsUpCarriesAPort() throws IOException, InterruptedException {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root");
        final String name = "tsdown" + ProcessHandle.current().pid() % 100_000;
        assumeTrue(ip("link", "add", name, "type", "veth", "peer", "name", name + "p") == 0, "cannot make a veth here (needs iproute2)");
        try {
            final Cli.Result down = Cli.trimswitch("run", "-i", "0@" + name, "--metrics", "off");
            assertEquals(TrimswitchCommand.EXIT_USAGE, down.exit(), down.out() + down.err());
            assertEquals("trimswitch: port 0: interface " + name + " is down (ip link set " + name + " up)", down.err().strip());

            assertEquals(0, ip("link", "set", name, "up"));
            final String withoutRawSockets = withoutCapNetRaw("run", "-i", "0@" + name, "--metrics", "off", "--duration-s", "0.3");
            if (withoutRawSockets != null) {
                assertEquals("trimswitch: port 0: interface " + name + ": cannot open a packet socket: Operation not permitted (needs CAP_NET_RAW: run as root)",
                    withoutRawSockets);
            }
            // Both kinds of port in one switch: a UDP endpoint from the file, an interface from -i.
            final Path mixed = dir.resolve("mixed.yaml");
            Files.writeString(mixed, "ports:\n  - {bind: 127.0.0.1:0, remote: 127.0.0.1:9}\n");
            final Cli.Result up = Cli.trimswitch("run", "--config", mixed.toString(), "-i", "1@" + name, "--metrics", "off", "--duration-s", "0.3");
            assertEquals(0, up.exit(), up.out() + up.err());
            final String ports = up.out().lines().filter(line -> line.startsWith("trimswitch: port ")).reduce("", (a, b) -> a + b + "\n");
            assertTrue(ports.startsWith("trimswitch: port 0: udp 127.0.0.1:"), ports);
            assertTrue(ports.contains("\ntrimswitch: port 1: interface " + name + " (AF_PACKET, MTU 1500)"), ports);
            assertTrue(up.out().contains("stopped; 0 packets still inside"), up.out());
            // The same interface as an af_xdp port: its start-up line says how the kernel serves it.
            final Cli.Result xdp = Cli.trimswitch("run", "-i", "0@" + name + ":af_xdp", "--metrics", "off", "--duration-s", "0.3");
            assumeTrue(!xdp.err().contains("CONFIG_XDP_SOCKETS"), xdp.err());
            assertEquals(0, xdp.exit(), xdp.out() + xdp.err());
            assertTrue(xdp.out().contains("trimswitch: port 0: interface " + name + " (AF_XDP copy mode, driver mode, MTU 1500)"), xdp.out());
        } finally {
            ip("link", "del", name);
        }
    }

    /** What the tool printed, exit 2 asserted, when run without CAP_NET_RAW (util-linux's setpriv); null without setpriv. */
    private static String withoutCapNetRaw(final String... args) throws IOException, InterruptedException {
        if (!Files.isExecutable(Path.of("/usr/bin/setpriv"))) {
            return null;
        }
        final java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of("/usr/bin/setpriv", "--bounding-set", "-net_raw",
            "--inh-caps", "-net_raw", Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
            "-cp", System.getProperty("java.class.path"), TrimswitchCommand.class.getName()));
        command.addAll(java.util.List.of(args));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the tool did not finish: " + output);
        assertEquals(TrimswitchCommand.EXIT_USAGE, process.exitValue(), output);
        return output;
    }

    private static int ip(final String... args) throws IOException, InterruptedException {
        final String[] command = new String[args.length + 1];
        command[0] = "ip";
        System.arraycopy(args, 0, command, 1, args.length);
        final Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (final IOException e) {
            return -1;
        }
        assertTrue(process.waitFor(10, TimeUnit.SECONDS), "ip " + String.join(" ", args) + " did not finish");
        return process.exitValue();
    }
}
