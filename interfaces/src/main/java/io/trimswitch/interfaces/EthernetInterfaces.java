package io.trimswitch.interfaces;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** What every kind of interface port checks of its interface before it opens it. */
public final class EthernetInterfaces {
    private static final long SIOCGIFHWADDR = 0x8927;
    private static final int ARPHRD_ETHER = 1;

    private EthernetInterfaces() {
    }

    /**
     * Reads the interface's flags, link type and MTU through socket {@code fd}: refuses an interface that is down (when
     * {@code mustBeUp}) or has no Ethernet header; its MTU.
     *
     * @throws IllegalStateException with one line naming the interface and the reason
     */
    public static int checkedMtu(final LinuxCalls calls, final int fd, final MemorySegment cName, final String interfaceName, final boolean mustBeUp,
        final Arena scratch) {
        final MemorySegment request = scratch.allocate(LinuxCalls.IFREQ_BYTES);
        request.copyFrom(cName.asSlice(0, Math.min(cName.byteSize(), 15)));
        check(calls, calls.ioctl(fd, LinuxCalls.SIOCGIFFLAGS, request), interfaceName, "read its flags");
        if (mustBeUp && (request.get(ValueLayout.JAVA_SHORT, LinuxCalls.IFREQ_UNION) & LinuxCalls.IFF_UP) == 0) {
            throw new IllegalStateException("interface " + interfaceName + " is down (ip link set " + interfaceName + " up)");
        }
        check(calls, calls.ioctl(fd, SIOCGIFHWADDR, request), interfaceName, "read its link type");
        final int linkType = Short.toUnsignedInt(request.get(ValueLayout.JAVA_SHORT, LinuxCalls.IFREQ_UNION));
        if (linkType != ARPHRD_ETHER) {
            // Frames without an Ethernet header (loopback, tun, ip-in-ip) would be read as garbage: refused at once.
            throw new IllegalStateException("interface " + interfaceName + " is not an Ethernet interface (" + linkTypeName(linkType)
                + "); a port needs one: a veth, a NIC, a tap");
        }
        check(calls, calls.ioctl(fd, LinuxCalls.SIOCGIFMTU, request), interfaceName, "read its MTU");
        final int mtu = request.get(ValueLayout.JAVA_INT, LinuxCalls.IFREQ_UNION);
        return mtu;
    }

    /** The kernel's name for a link type (if_arp.h), as {@code ip link} shows it. */
    private static String linkTypeName(final int type) {
        return switch (type) {
            case 772 -> "loopback";
            case 65534 -> "no link layer: a tun or a wireguard device";
            case 768 -> "ipip tunnel";
            case 776 -> "sit tunnel";
            case 778 -> "gre tunnel";
            case 823 -> "ip6gre tunnel";
            case 769 -> "ip6 tunnel";
            case 32 -> "infiniband";
            default -> "link type " + type;
        };
    }

    /** Fails with one line naming the interface, what could not be done and the kernel's reason, when {@code result} is negative. */
    public static void check(final LinuxCalls calls, final int result, final String interfaceName, final String what) {
        if (result < 0) {
            throw new IllegalStateException("interface " + interfaceName + ": cannot " + what + ": " + LinuxCalls.describe(calls.errno()));
        }
    }
}
