package io.trimswitch.live.settings;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.SettingsValidation;
import io.trimswitch.config.Settings;
import io.trimswitch.switching.source.Pattern;
import io.trimswitch.interfaces.InterfacePorts;
import io.trimswitch.interfaces.SocketKind;
import io.trimswitch.pipelines.BridgeForwarding;
import io.trimswitch.pipelines.LearningBridge;
import io.trimswitch.pipelines.LpmForwarding;
import io.trimswitch.realtime.shard.ShardOwnership;
import io.trimswitch.live.port.LivePortKind;
import io.trimswitch.live.port.PortKindSettings;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings {@code trimswitch run} adds (ports, forwarding, metrics), checked and turned into what
 * the live switch is built from. Every failure names the setting.
 */
public final class LiveSettings {
    /**
     * A live switch's idle mode unless its config or {@code --idle} names one: it polls while there is traffic and
     * sleeps in its ports' poller a moment after the last packet, so an idle switch (or one whose interfaces are gone)
     * leaves its core to the host. Scenarios keep {@code busy-spin}, the settings' own default, which their reports echo.
     */
    public static final Settings.Idle DEFAULT_IDLE = Settings.Idle.POLL;

    private LiveSettings() {
    }

    /** {@code settings} with the live switch's {@link #DEFAULT_IDLE}, unless {@code idleChosen} (by the config or a flag). */
    public static Settings withLiveDefaults(final Settings settings, final boolean idleChosen) {
        return idleChosen ? settings : settings.withRealtime(r -> r.withIdle(DEFAULT_IDLE));
    }

    /**
     * The settings of a live switch: real time at the switch's own speed, with traffic from the attached hosts only.
     * Fails with one clear line on the first impossible value.
     */
    public static Settings validate(final Settings configured) {
        // As written first: a live switch ignores some settings, but an impossible value is still a mistake.
        configured.validate();
        // The workload's pattern too, which only the model's runs use, refused as a scenario refuses it.
        Pattern.of(configured);
        final Settings s = configured.withClock(Settings.Clock.REAL).withOpenLoop().withRealtime(r -> r.withDilation(1).withWarmUp(false)).validate();
        if (s.ports().isEmpty()) {
            throw new ConfigException("ports: a switch to run needs at least one port (-i 0@veth0, or ports: [{interface: veth0}, ...] or [{bind: 0.0.0.0:4790}, ...])");
        }
        if (s.ports().size() > s.portCount()) {
            throw new ConfigException("ports: " + s.ports().size() + " ports, but fabric.pipelines × fabric.portsPerPipeline is " + s.portCount());
        }
        LivePortKind.named(LivePortKind.UDP).ports(s);
        PortKindSettings.portKind(s);
        attachments(s);
        SettingsValidation.within("forwarding.agingSeconds", s.forwarding().agingSeconds(), 0.001, 365 * 86_400, "s");
        SettingsValidation.within("forwarding.macTableSize", s.forwarding().macTableSize(), 1, LearningBridge.MOST_ADDRESSES);
        staticMacs(s);
        if (s.forwarding().mode() == Settings.ForwardingMode.ROUTED) {
            routes(s);
            routes6(s);
        }
        metricsAddress(s);
        return s;
    }

    /** The ports on Linux interfaces; two ports may not sit on the same interface. */
    public static List<InterfacePorts.Attachment> attachments(final Settings s) {
        final List<InterfacePorts.Attachment> attachments = new ArrayList<>();
        final Map<String, Integer> taken = new HashMap<>();
        for (int port = 0; port < s.ports().size(); port++) {
            final Settings.Port entry = s.ports().get(port);
            if (!entry.onInterface()) {
                continue;
            }
            final String name = "ports[" + port + "]";
            final String interfaceName = entry.interfaceName();
            // Linux's own rule for a name: 1 to 15 bytes, no slash, no white space, not "." or "..".
            if (interfaceName.isEmpty() || interfaceName.length() > 15 || !interfaceName.matches("[\\x21-\\x7E&&[^/:]]+")
                || interfaceName.equals(".") || interfaceName.equals("..")) {
                throw new ConfigException(name + ".interface '" + interfaceName + "' is not an interface name (1 to 15 characters, no '/', ':' or spaces)");
            }
            if (entry.bind() != null || entry.remote() != null || entry.remotePort() != null) {
                throw new ConfigException(name + " has both interface and bind/remote/remotePort: a port is an interface or a UDP endpoint, not both");
            }
            final Integer clash = taken.put(interfaceName, port);
            if (clash != null) {
                throw new ConfigException(name + ".interface " + interfaceName + " is already ports[" + clash + "]: an interface carries one port");
            }
            rate(s, port, name, entry);
            final SocketKind kind = PortKindSettings.kind(s, name, entry.kind());
            attachments.add(new InterfacePorts.Attachment(port, interfaceName, kind, PortKindSettings.queues(name, entry.queues(), kind)));
        }
        return attachments;
    }

    /** Checks port {@code port}'s own {@code rateGbps}, of whatever kind, against the control loop's rates. */
    public static void rate(final Settings s, final int port, final String name, final Settings.Port entry) {
        if (entry.rateGbps() != null) {
            SettingsValidation.rate(name + ".rateGbps", entry.rateGbps());
            if (s.halftimisticRateBps(port) > s.portRateBps(port) || s.pessimisticRateBps(port) > s.halftimisticRateBps(port)) {
                throw new ConfigException(name + ".rateGbps " + entry.rateGbps() + " is below control.halftimisticRateGbps or control.pessimisticRateGbps");
            }
        }
    }

    /** True when some port of the switch sits on a Linux interface. */
    public static boolean hasInterfacePorts(final Settings s) {
        return s.ports().stream().anyMatch(Settings.Port::onInterface);
    }

    public static Map<Long, Integer> staticMacs(final Settings s) {
        final Map<Long, Integer> macs = new LinkedHashMap<>();
        for (int i = 0; i < s.forwarding().staticMacs().size(); i++) {
            final Settings.StaticMac entry = s.forwarding().staticMacs().get(i);
            final String name = "forwarding.staticMacs[" + i + "]";
            port(name + ".port", entry.port(), s.ports().size());
            macs.put(mac(name + ".mac", entry.mac()), entry.port());
        }
        return macs;
    }

    /** The IPv4 routes of {@code forwarding.routes}. */
    public static List<LpmForwarding.Route> routes(final Settings s) {
        final List<LpmForwarding.Route> routes = new ArrayList<>();
        for (int i = 0; i < s.forwarding().routes().size(); i++) {
            final Settings.Route entry = s.forwarding().routes().get(i);
            final String name = "forwarding.routes[" + i + "]";
            final String[] parts = prefix(name, entry);
            if (parts[0].contains(":")) {
                continue;
            }
            final int length = prefixLength(name, parts[1], 32);
            port(name + ".port", entry.port(), s.ports().size());
            routes.add(new LpmForwarding.Route(ipv4(name + ".prefix", parts[0]), length, entry.port(), mac(name + ".nextHopMac", entry.nextHopMac())));
        }
        return routes;
    }

    /** The IPv6 routes of {@code forwarding.routes}: those whose prefix is written with colons. */
    public static List<LpmForwarding.Route6> routes6(final Settings s) {
        final List<LpmForwarding.Route6> routes = new ArrayList<>();
        for (int i = 0; i < s.forwarding().routes().size(); i++) {
            final Settings.Route entry = s.forwarding().routes().get(i);
            final String name = "forwarding.routes[" + i + "]";
            final String[] parts = prefix(name, entry);
            if (!parts[0].contains(":")) {
                continue;
            }
            final int length = prefixLength(name, parts[1], 128);
            port(name + ".port", entry.port(), s.ports().size());
            final byte[] address;
            try {
                address = InetAddress.getByName(parts[0]).getAddress();
            } catch (final UnknownHostException e) {
                throw new ConfigException(name + ".prefix: '" + parts[0] + "' is not an IPv6 address");
            }
            if (address.length != 16) {
                throw new ConfigException(name + ".prefix: '" + parts[0] + "' is not an IPv6 address");
            }
            final java.nio.ByteBuffer bytes = java.nio.ByteBuffer.wrap(address);
            routes.add(new LpmForwarding.Route6(bytes.getLong(), bytes.getLong(), length, entry.port(), mac(name + ".nextHopMac", entry.nextHopMac())));
        }
        return routes;
    }

    private static String[] prefix(final String name, final Settings.Route entry) {
        if (entry.prefix() == null || !entry.prefix().contains("/")) {
            throw new ConfigException(name + ".prefix must be a.b.c.d/len or an IPv6 prefix like fd00::/64, got '" + entry.prefix() + "'");
        }
        return entry.prefix().split("/", 2);
    }

    private static int prefixLength(final String name, final String text, final int most) {
        final int length;
        try {
            length = io.trimswitch.config.WholeNumbers.parseInt(text);
        } catch (final NumberFormatException e) {
            throw new ConfigException(name + ".prefix length '" + text + "' is not a number");
        }
        if (length < 0 || length > most) {
            throw new ConfigException(name + ".prefix length must be 0.." + most + ", got " + length);
        }
        return length;
    }

    /** Each port's own MAC in routed mode: 02:54:53:00:pp:pp. */
    public static long portMac(final int port) {
        return 0x0254_5300_0000L | port;
    }

    /**
     * The switch's counters file: {@code metrics.countersFile}, or by default one per network namespace under /run/trimswitch,
     * so that {@code stats} run in a switch's namespace finds that switch's counters.
     */
    public static java.nio.file.Path countersFile(final Settings s) {
        if (s.metrics().countersFile() == null) {
            return defaultCountersFile();
        }
        if (s.metrics().countersFile().isBlank()) {
            throw new ConfigException("metrics.countersFile must name a file, got an empty name");
        }
        try {
            return java.nio.file.Path.of(s.metrics().countersFile());
        } catch (final java.nio.file.InvalidPathException e) {
            throw new ConfigException("metrics.countersFile: '" + s.metrics().countersFile() + "' is not a file name: " + e.getReason());
        }
    }

    /**
     * RUN/trimswitch-NETNS.counters, NETNS the inode of this process's network namespace and RUN {@link #runDirectory()}:
     * a directory that only root can write, unlike /dev/shm, where any user could plant or lock a file of that name.
     */
    public static java.nio.file.Path defaultCountersFile() {
        String namespace;
        try {
            namespace = java.nio.file.Files.getAttribute(java.nio.file.Path.of("/proc/self/ns/net"), "unix:ino").toString();
        } catch (final java.io.IOException | UnsupportedOperationException | IllegalArgumentException e) {
            namespace = "host";
        }
        return runDirectory().resolve("trimswitch-" + namespace + ".counters");
    }

    /**
     * {@code name} in the run directory as a reader (stats, ctl) finds it: root's switch's, under /run/trimswitch, when
     * there is one (a member of the control group is not root), else this user's own.
     */
    public static java.nio.file.Path findInRunDirectory(final String name) {
        final java.nio.file.Path system = java.nio.file.Path.of("/run/trimswitch").resolve(name);
        if (io.trimswitch.dataplane.io.PrivateFiles.processUid() == 0 || java.nio.file.Files.exists(system, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return system;
        }
        return runDirectory().resolve(name);
    }

    /**
     * Where a running switch keeps its counters, locks and control socket: /run/trimswitch for root; for another user
     * (a switch of UDP ports only), a directory of that user's own under the temporary directory.
     */
    public static java.nio.file.Path runDirectory() {
        if (io.trimswitch.dataplane.io.PrivateFiles.processUid() == 0) {
            return java.nio.file.Path.of("/run/trimswitch");
        }
        return java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), "trimswitch-" + io.trimswitch.dataplane.io.PrivateFiles.processUid());
    }

    /** The metrics endpoint, or null for none. */
    public static InetSocketAddress metricsAddress(final Settings s) {
        return s.metrics().address() == null ? null : socket("metrics.address", s.metrics().address());
    }

    /** A host:port as a user writes it, {@code name} the setting that holds it. */
    public static InetSocketAddress socket(final String name, final String text) {
        final int colon = text.lastIndexOf(':');
        if (colon <= 0) {
            throw new ConfigException(name + " must be host:port, got '" + text + "'");
        }
        final int port;
        try {
            port = io.trimswitch.config.WholeNumbers.parseInt(text.substring(colon + 1));
        } catch (final NumberFormatException e) {
            throw new ConfigException(name + ": '" + text.substring(colon + 1) + "' is not a port number in '" + text + "'");
        }
        if (port < 0 || port > 65535) {
            throw new ConfigException(name + ": port must be 0..65535, got " + port);
        }
        final String host = text.substring(0, colon);
        final boolean bracketed = host.startsWith("[");
        if (bracketed != host.endsWith("]") || bracketed && host.length() < 3) {
            throw new ConfigException(name + " must be host:port or [IPv6]:port, got '" + text + "'");
        }
        final String bare = bracketed ? host.substring(1, host.length() - 1) : host;
        final InetAddress address;
        try {
            address = InetAddress.getByName(bare);
        } catch (final UnknownHostException e) {
            throw new ConfigException(name + ": unknown host '" + host + "' in '" + text + "'");
        }
        if (address.isAnyLocalAddress() && !EVERY_INTERFACE.contains(bare)) {
            // Listening beyond loopback must be asked for in so many words, not by an address that happens to mean it.
            throw new ConfigException(name + ": '" + host + "' means every interface; write 0.0.0.0 or [::] to listen on all of them, got '" + text + "'");
        }
        return new InetSocketAddress(address, port);
    }

    /** The only spellings of the all-interfaces address that are taken as meaning it. */
    private static final java.util.Set<String> EVERY_INTERFACE = java.util.Set.of("0.0.0.0", "::");

    static long mac(final String name, final String text) {
        if (text == null || !text.matches("\\p{XDigit}{2}(:\\p{XDigit}{2}){5}")) {
            throw new ConfigException(name + " must be a MAC address like 02:00:00:00:00:01, got '" + text + "'");
        }
        return Long.parseLong(text.replace(":", ""), 16);
    }

    static int ipv4(final String name, final String text) {
        final String[] octets = text.split("\\.");
        if (octets.length != 4) {
            throw new ConfigException(name + ": '" + text + "' is not an IPv4 address");
        }
        int address = 0;
        for (final String octet : octets) {
            final int value;
            try {
                value = io.trimswitch.config.WholeNumbers.parseInt(octet);
            } catch (final NumberFormatException e) {
                throw new ConfigException(name + ": '" + text + "' is not an IPv4 address");
            }
            if (value < 0 || value > 255) {
                throw new ConfigException(name + ": '" + text + "' is not an IPv4 address");
            }
            address = (address << 8) | value;
        }
        return address;
    }

    private static void port(final String name, final int port, final int ports) {
        if (port < 0 || port >= ports) {
            throw new ConfigException(name + " must be one of the switch's ports 0.." + (ports - 1) + ", got " + port);
        }
    }

    /**
     * How the switch chooses a frame's port: by its bridge (l2: a copy per shard of {@code shards}, each used for the ports
     * its shard owns), its routes (routed), or its ports' subnets.
     */
    public static io.trimswitch.pipelines.ForwardingStage forwarding(final Settings settings, final int shards) {
        switch (settings.forwarding().mode()) {
            case L2:
                final ShardOwnership ownership = new ShardOwnership(settings, shards, false);
                final int[] shardOfPort = new int[settings.portCount()];
                for (int port = 0; port < shardOfPort.length; port++) {
                    shardOfPort[port] = ownership.ingressShardOfPort(port);
                }
                return new BridgeForwarding(Math.round(settings.forwarding().agingSeconds() * 1e9), settings.forwarding().macTableSize(), staticMacs(settings), shardOfPort,
                    java.util.stream.IntStream.range(0, settings.ports().size()).toArray(), shards);
            case ROUTED:
                final long[] macs = new long[settings.portCount()];
                for (int port = 0; port < macs.length; port++) {
                    macs[port] = portMac(port);
                }
                return new io.trimswitch.pipelines.LpmForwarding(routes(settings), routes6(settings), macs);
            default:
                // Only the ports that have a socket: a frame for a port the assembly has but the host does not is not routed.
                return new io.trimswitch.pipelines.PortSubnetForwarding(settings.ports().size());
        }
    }
}
