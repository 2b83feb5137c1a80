package io.trimswitch.interfaces;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * How a port reads and sends its interface's frames, by the name the settings give it: an AF_PACKET ring
 * ({@code af_packet}, the kernel makes an skb of every frame and copies it into the ring) or an AF_XDP socket
 * ({@code af_xdp}, an XDP program hands each frame to the socket before any skb exists).
 */
public enum InterfaceKind {
    AF_PACKET("af_packet"),
    AF_XDP("af_xdp");

    private final String settingName;

    InterfaceKind(final String settingName) {
        this.settingName = settingName;
    }

    public String settingName() {
        return settingName;
    }

    /** The kind called {@code name} in the settings; null for none. */
    public static InterfaceKind named(final String name) {
        return Arrays.stream(values()).filter(kind -> kind.settingName.equals(name)).findFirst().orElse(null);
    }

    /** The names the settings take, for a message that refuses another. */
    public static String names() {
        return Arrays.stream(values()).map(InterfaceKind::settingName).collect(Collectors.joining(", "));
    }

    /** Opens {@code interfaceName} as a port of this kind; one line naming the interface and the reason when it cannot. */
    PortSocket open(final String interfaceName, final LinuxCalls calls, final boolean mustBeUp) {
        return this == AF_XDP ? XdpSocket.open(interfaceName, calls, mustBeUp) : PacketSocket.open(interfaceName, calls, mustBeUp);
    }
}
