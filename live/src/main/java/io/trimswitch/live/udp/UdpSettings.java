package io.trimswitch.live.udp;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.codec.VxlanHeader;
import io.trimswitch.live.settings.LiveSettings;
import io.trimswitch.sockets.VxlanPorts;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The {@code udp} kind's settings block: each port's {@code bind}, {@code remote}, {@code remotePort} and {@code vni}. */
final class UdpSettings {
    private UdpSettings() {
    }

    /** The ports as UDP endpoints; two ports may not listen on the same address. */
    static List<VxlanPorts.Endpoint> endpoints(final Settings s) {
        final List<VxlanPorts.Endpoint> endpoints = new ArrayList<>();
        final Map<String, Integer> bound = new HashMap<>();
        for (int port = 0; port < s.ports().size(); port++) {
            final Settings.Port entry = s.ports().get(port);
            final String name = "ports[" + port + "]";
            if (entry != null && entry.onInterface()) {
                continue;
            }
            if (entry != null && (entry.kind() != null || entry.queues() != null)) {
                throw new ConfigException(name + (entry.kind() != null ? ".kind " + entry.kind() : ".queues " + entry.queues())
                    + " is for a port on an interface; a UDP port has neither kind nor queues");
            }
            if (entry == null || entry.bind() == null) {
                throw new ConfigException(name + ".bind is missing: the host:port the port listens on (or interface: NAME for a port on a Linux interface)");
            }
            final InetSocketAddress bind = LiveSettings.socket(name + ".bind", entry.bind());
            if (bind.getPort() != 0) {
                final Integer clash = bound.put(bind.getAddress().getHostAddress() + ":" + bind.getPort(), port);
                if (clash != null) {
                    throw new ConfigException(name + ".bind " + entry.bind() + " clashes with ports[" + clash + "].bind");
                }
            }
            if (entry.vni() < 0 || entry.vni() > VxlanHeader.MAX_VNI) {
                throw new ConfigException(name + ".vni must be 0.." + VxlanHeader.MAX_VNI + ", got " + entry.vni());
            }
            final InetSocketAddress remote = entry.remote() == null ? null : LiveSettings.socket(name + ".remote", entry.remote());
            final int remotePort = entry.remotePort() != null ? entry.remotePort() : remote != null ? remote.getPort() : bind.getPort();
            if (remotePort < 1 || remotePort > 65535) {
                throw new ConfigException(name + ".remotePort must be 1..65535, got " + remotePort
                    + (entry.remotePort() == null ? " (the bind port: set remotePort when binding port 0)" : ""));
            }
            LiveSettings.rate(s, port, name, entry);
            endpoints.add(new VxlanPorts.Endpoint(port, bind, remote, remotePort, entry.vni()));
        }
        return endpoints;
    }
}
