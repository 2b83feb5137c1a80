package io.trimswitch.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code trimswitch ctl}: a running switch shows what it runs with and takes the changes that need no restart. */
class CtlCommandTest {
    private static final String PORTS = "ports:\n  - {bind: 127.0.0.1:0, remote: 127.0.0.1:9}\n  - {bind: 127.0.0.1:0, remote: 127.0.0.1:9}\n"
        + "metrics:\n  address: null\n";

    @TempDir
    Path dir;

    @Test
    void aRunningSwitchShowsItselfTakesLiveChangesAndRefusesTheRestInOneLine() throws Exception {
        final Path config = dir.resolve("switch.yaml");
        Files.writeString(config, PORTS);
        final Path socket = dir.resolve("s.ctl");
        final String[] run = {"run", "--config", config.toString(), "--counters", dir.resolve("s.counters").toString(),
            "--control", socket.toString(), "--duration-s", "120"};
        final CompletableFuture<Cli.Result> running = CompletableFuture.supplyAsync(() -> Cli.trimswitch(run));
        final long deadline = System.nanoTime() + 60_000_000_000L;
        while (!Files.exists(socket) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertTrue(Files.exists(socket), "host too slow: the switch made no control socket in 60 s: " + (running.isDone() ? running.get() : ""));

        final Cli.Result show = ctl(socket, "show");
        assertEquals(0, show.exit(), show.err());
        assertTrue(show.out().startsWith("port  kind"), show.out());
        assertTrue(show.out().matches("(?s).*\n0     udp        127\\.0\\.0\\.1:[0-9]+ vni 42 +up +100 +0 +0\n.*"), show.out());
        assertTrue(show.out().contains("settings in force (show --all adds the simulator's: clock, transport, workload):\nmechanism: \"tofino\""), show.out());
        assertTrue(!show.out().contains("\nworkload:") && !show.out().contains("\ntransport:") && show.out().contains("\nrealtime:\n"),
            "show leaves out what only a simulation reads: " + show.out());
        final Cli.Result all = ctl(socket, "show", "--all");
        assertTrue(all.out().contains("settings in force:\nmechanism") && all.out().contains("\nworkload:\n") && all.out().contains("\ntransport:\n"), all.out());
        assertTrue(show.out().contains("  idle: \"poll\"\n"), "a live switch sleeps when idle unless told otherwise: " + show.out());
        assertTrue(ctl(socket, "--json", "show").out().contains("\"realtime\""), "JSON shows the same sections");
        assertTrue(!ctl(socket, "--json", "show").out().contains("\"workload\""), "JSON shows the same sections");

        final Cli.Result set = ctl(socket, "set", "trim.dscp", "12");
        assertEquals("set trim.dscp: applied trim.dscp\n", set.out(), set.err());
        assertTrue(ctl(socket, "--json", "show").out().contains("\"dscp\" : 12"));
        assertEquals("set ports.1.rateGbps: applied ports.1.rateGbps\n", ctl(socket, "set", "ports.1.rateGbps", "0.5").out());
        assertTrue(ctl(socket, "show").out().contains("\n1     udp"), "port 1 still listed");

        assertRefused(ctl(socket, "set", "ports.1.vni", "7"), "trimswitch: set ports.1.vni: ports.1.vni cannot change while the switch runs");
        assertRefused(ctl(socket, "set", "trim.dscp", "64"), "trimswitch: set trim.dscp: trim.dscp must be 0..63, got 64; nothing was changed");
        assertRefused(ctl(socket, "set", "control.notify", "bogus"),
            "trimswitch: set control.notify: control.notify must be one of all, origin, got 'bogus'; nothing was changed");
        assertRefused(ctl(socket, "set", "trim.dscp", ".nan"), "trimswitch: set trim.dscp: not valid YAML");
        assertRefused(ctl(socket, "set", "trim.dscp", "twelve"), "trimswitch: set trim.dscp: bad value for 'trim.dscp'");
        assertRefused(ctl(socket, "set", "control.t0Us", "-1"), "trimswitch: set control.t0Us:");
        assertRefused(ctl(socket, "frobnicate"), "trimswitch: unknown command 'frobnicate'; commands: show [macs|--all], set KEY VALUE, reload, add-port N@IFACE [--rate-gbps R] [--wait], del-port N,"
            + " capture PORT start FILE, capture PORT stop, stop");
        assertRefused(ctl(socket, "del-port", "\u0661"), "trimswitch: del-port: N must be a port number, got '\u0661'");
        assertRefused(ctl(socket, "set", "ports.\u0661.rateGbps", "1"), "trimswitch: set: '\u0661' in 'ports.\u0661.rateGbps' must be a list index");
        assertRefused(ctl(socket, "set", "trim.dscp", "\u0661\u0662"), "trimswitch: set trim.dscp: bad value for 'trim.dscp'");
        assertRefused(ctl(socket, "del-port", "0"), "trimswitch: del-port: port 0 is a UDP port; only interface ports are removed and added while the switch runs");
        assertRefused(ctl(socket, "add-port", "9@veth9"), "trimswitch: add-port: port 9 is neither a port of this switch (0..1) nor the next new one (2)");
        assertRefused(ctl(socket, "add-port", "2@veth9"), "trimswitch: add-port: a switch of UDP ports takes no interface port while it runs; restart it with one");
        assertRefused(ctl(socket, "--rate-gbps", "1", "show"), "trimswitch: --rate-gbps goes with add-port only");
        assertRefused(ctl(socket, "--wait", "show"), "trimswitch: --wait goes with add-port only");
        assertRefused(ctl(socket, "--all", "reload"), "trimswitch: --all goes with show only");
        assertRefused(ctl(socket, "show", "everything"), "trimswitch: usage: show | show --all | show macs");
        assertTrue(ctl(socket, "--json", "show").out().contains("\"dscp\" : 12"), "a refused change changed nothing");

        // A capture of port 1 while a frame from port 0's host is flooded to it.
        final Path pcap = dir.resolve("port1.pcapng");
        assertEquals("capturing port 1 to " + pcap + "\n", ctl(socket, "capture", "1", "start", pcap.toString()).out());
        assertRefused(ctl(socket, "capture", "1", "start", pcap.toString()), "trimswitch: capture: port 1 is already being captured to " + pcap);
        assertRefused(ctl(socket, "capture", "7", "start", dir.resolve("x.pcapng").toString()), "trimswitch: capture: port 7 is not attached; ports are 0..1");
        assertRefused(ctl(socket, "capture", "0", "start", dir.resolve("no/such/x.pcapng").toString()), "trimswitch: capture: " + dir.resolve("no/such/x.pcapng") + ": no such directory");
        assertRefused(ctl(socket, "capture", "x", "stop"), "trimswitch: capture: PORT must be a port number, got 'x'");
        assertRefused(ctl(socket, "capture", "0", "stop"), "trimswitch: capture: port 0 is not being captured");
        final int port0 = Integer.parseInt(ctl(socket, "--json", "show").out().replaceAll("(?s).*?\"attachedTo\" : \"127\\.0\\.0\\.1:([0-9]+) vni 42\".*", "$1"));
        final byte[] frame = new byte[8 + 60];
        frame[0] = 0x08;
        frame[6] = 42; // VNI 42, the port's
        for (int i = 0; i < 6; i++) {
            frame[8 + i] = (byte) 0xff;
        }
        frame[8 + 6] = 0x02;
        frame[8 + 11] = 0x01;
        frame[8 + 12] = 0x08;
        frame[8 + 13] = 0x06;
        try (java.net.DatagramSocket host = new java.net.DatagramSocket()) {
            host.send(new java.net.DatagramPacket(frame, frame.length, java.net.InetAddress.getLoopbackAddress(), port0));
        }
        Thread.sleep(500);
        final Cli.Result macs = ctl(socket, "show", "macs");
        assertTrue(macs.out().matches("(?s)port  MAC +age s\n0     02:00:00:00:00:01 +[0-9]+\\.[0-9]\n1 address, aging after 300 s, at most 8192 learned\n"), macs.out());
        assertTrue(ctl(socket, "--json", "show", "macs").out().contains("\"mac\" : \"02:00:00:00:00:01\""));
        final Cli.Result stopped1 = ctl(socket, "capture", "1", "stop");
        assertEquals("port 1: 1 frames written to " + pcap + "\n", stopped1.out(), "the flooded frame, sent on port 1; " + stopped1.err());
        assertTrue(Files.size(pcap) > 60, "the pcapng holds the frame");
        // A capture goes to a new regular file only: not over one that exists, not into a device.
        assertRefused(ctl(socket, "capture", "1", "start", pcap.toString()), "trimswitch: capture: " + pcap + ": exists; pick a new name, or add --overwrite to replace it");
        assertRefused(ctl(socket, "capture", "1", "start", "/dev/full", "--overwrite"), "trimswitch: capture: /dev/full: not a regular file");
        assertEquals("capturing port 1 to " + pcap + "\n", ctl(socket, "capture", "1", "start", pcap.toString(), "--overwrite").out());
        assertTrue(ctl(socket, "capture", "1", "stop").out().startsWith("port 1: 0 frames written to " + pcap));

        // reload: the file again, with the command line's options over it.
        Files.writeString(config, PORTS + "trim:\n  dscp: 20\ncontrol:\n  t0Us: 4\n");
        assertEquals("reload: trim.dscp 12 -> 20, control.t0Us 6.0 -> 4.0, ports.1.rateGbps 0.5 -> default (the file's values)\n", ctl(socket, "reload").out());
        Files.writeString(config, PORTS);
        assertEquals("set trim.dscp: applied trim.dscp\n", ctl(socket, "set", "trim.dscp", "30").out());
        assertEquals("reload: trim.dscp 30 -> 11, control.t0Us 4.0 -> 6.0 (the file's values)\n", ctl(socket, "reload").out(),
            "a reload that puts the file's value back over a set says so");
        Files.writeString(config, PORTS.replace("remote: 127.0.0.1:9}\n  -", "remote: 127.0.0.1:9, vni: 5}\n  -"));
        assertRefused(ctl(socket, "reload"), "trimswitch: reload: ports.0.vni cannot change while the switch runs (restart it for that); nothing was changed");

        final Cli.Result second = Cli.trimswitch("run", "--config", config.toString(), "--counters", dir.resolve("t.counters").toString(),
            "--control", socket.toString(), "--duration-s", "1");
        assertRefused(second, "trimswitch: control socket " + socket + " belongs to a running switch (process " + ProcessHandle.current().pid() + ")");

        assertEquals("stopping\n", ctl(socket, "stop").out());
        final Cli.Result stopped = running.get(30, java.util.concurrent.TimeUnit.SECONDS);
        assertEquals(0, stopped.exit(), stopped.err());
        assertTrue(!Files.exists(socket), "the socket goes with the switch");
        assertRefused(ctl(socket, "show"), "trimswitch: no control socket at " + socket);
    }

    @Test
    void aFileThatIsNotASocketIsSaidToBeNoControlSocket() {
        final Cli.Result result = Cli.trimswitch("ctl", "--socket", "/etc/passwd", "show");
        assertRefused(result, "trimswitch: /etc/passwd is not a control socket (a file of another kind)");
    }

    @Test
    void ctlHelpListsEveryCommandWithoutASwitch() {
        final Cli.Result help = Cli.trimswitch("ctl", "help");
        assertEquals(0, help.exit(), help.err());
        for (final String command : new String[] {"show ", "show --all", "show macs", "set KEY VALUE", "reload", "add-port N@IFACE", "del-port N",
            "capture PORT start FILE", "capture PORT stop", "stop", "help"}) {
            assertTrue(help.out().contains("\n  " + command), command + " in " + help.out());
        }
        assertTrue(help.out().contains("trim.dscp"), "set's keys are listed: " + help.out());
    }

    private static Cli.Result ctl(final Path socket, final String... words) {
        final String[] args = new String[words.length + 3];
        args[0] = "ctl";
        args[1] = "--socket";
        args[2] = socket.toString();
        System.arraycopy(words, 0, args, 3, words.length);
        return Cli.trimswitch(args);
    }

    private static void assertRefused(final Cli.Result result, final String start) {
        assertEquals(2, result.exit(), result.out() + result.err());
        assertEquals(1, result.err().lines().count(), result.err());
        assertTrue(result.err().startsWith(start), "expected '" + start + "' in " + result.err());
    }
}
