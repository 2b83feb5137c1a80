package io.trimswitch.pipelines;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.codec.Ipv6Header;
import io.trimswitch.dataplane.packet.PacketClass;
import io.trimswitch.dataplane.packet.PacketPool;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;

/**
 * IPv4 and IPv6 routing by longest prefix match: a route sends a prefix out of a port to a next hop, whose MAC
 * becomes the frame's destination and the port's own MAC its source; the IPv4 TTL goes down by one with the
 * header checksum patched (RFC 1624), the IPv6 hop limit by one (IPv6 has no header checksum). A packet whose
 * TTL or hop limit would reach zero is dropped. The tables are built once and only read, so every pipeline
 * shares them.
 */
public final class LpmForwarding implements ForwardingStage {
    /** One route: {@code prefix}/{@code length} → {@code port}, towards {@code nextHopMac}. */
    public record Route(int prefix, int length, int port, long nextHopMac) {
        public Route {
            if (length < 0 || length > 32) {
                throw new IllegalArgumentException("prefix length must be 0..32, got " + length);
            }
        }
    }

    /** One IPv6 route: the prefix as two 64-bit halves, {@code high} first. */
    public record Route6(long high, long low, int length, int port, long nextHopMac) {
        public Route6 {
            if (length < 0 || length > 128) {
                throw new IllegalArgumentException("prefix length must be 0..128, got " + length);
            }
        }

        boolean matches(final long addressHigh, final long addressLow) {
            if (length <= 64) {
                return ((addressHigh ^ high) & mask64(length)) == 0;
            }
            return addressHigh == high && ((addressLow ^ low) & mask64(length - 64)) == 0;
        }

        private static long mask64(final int bits) {
            return bits == 0 ? 0 : -1L << (64 - bits);
        }
    }

    private static final int MISSING = -1;

    /** Per prefix length, the masked prefix → route index; lengths with no route are skipped. */
    private final Int2IntHashMap[] byLength = new Int2IntHashMap[33];
    private final int[] lengthsLongestFirst;
    private final Route[] routes;
    private final long[] portMacs;
    /** Longest prefix first: the first that matches is the longest match. A switch holds few IPv6 routes. */
    private final Route6[] routes6;

    /** @param portMacs each port's own MAC, the source of what it routes */
    public LpmForwarding(final List<Route> routes, final long[] portMacs) {
        this(routes, List.of(), portMacs);
    }

    public LpmForwarding(final List<Route> routes, final List<Route6> routes6, final long[] portMacs) {
        this.routes6 = routes6.stream().sorted(java.util.Comparator.comparingInt(Route6::length).reversed()).toArray(Route6[]::new);
        for (final Route6 route : this.routes6) {
            if (route.port() < 0 || route.port() >= portMacs.length) {
                throw new IllegalArgumentException("an IPv6 route leaves by port " + route.port() + ", but the switch has ports 0.." + (portMacs.length - 1));
            }
        }
        this.routes = routes.toArray(new Route[0]);
        this.portMacs = portMacs.clone();
        for (int index = 0; index < this.routes.length; index++) {
            final Route route = this.routes[index];
            if (route.port() < 0 || route.port() >= portMacs.length) {
                throw new IllegalArgumentException("route " + index + " leaves by port " + route.port() + ", but the switch has ports 0.." + (portMacs.length - 1));
            }
            if (byLength[route.length()] == null) {
                byLength[route.length()] = new Int2IntHashMap(MISSING);
            }
            byLength[route.length()].put(route.prefix() & mask(route.length()), index);
        }
        int count = 0;
        for (final Int2IntHashMap table : byLength) {
            count += table == null ? 0 : 1;
        }
        this.lengthsLongestFirst = new int[count];
        for (int length = 32, i = 0; length >= 0; length--) {
            if (byLength[length] != null) {
                lengthsLongestFirst[i++] = length;
            }
        }
    }

    @Override
    public int egressPort(final PacketPool pool, final int handle, final int packetClass) {
        if ((packetClass & PacketClass.IPV6) != 0) {
            return routeIpv6(pool.buffer(handle), pool.offset(handle));
        }
        if ((packetClass & PacketClass.IPV4) == 0) {
            return NO_ROUTE;
        }
        final UnsafeBuffer buffer = pool.buffer(handle);
        final int frame = pool.offset(handle);
        final int ip = frame + EthernetHeader.LENGTH;
        final Route route = lookup(Ipv4Header.destination(buffer, ip));
        if (route == null) {
            return NO_ROUTE;
        }
        final int ttl = Ipv4Header.ttl(buffer, ip);
        if (ttl <= 1) {
            return TTL_EXPIRED;
        }
        decrementTtl(buffer, ip, ttl);
        EthernetHeader.destination(buffer, frame, route.nextHopMac());
        EthernetHeader.source(buffer, frame, portMacs[route.port()]);
        return route.port();
    }

    private int routeIpv6(final UnsafeBuffer buffer, final int frame) {
        final int ip = frame + EthernetHeader.LENGTH;
        final Route6 route = lookup6(buffer.getLong(ip + Ipv6Header.DESTINATION_FIELD_OFFSET, java.nio.ByteOrder.BIG_ENDIAN),
            buffer.getLong(ip + Ipv6Header.DESTINATION_FIELD_OFFSET + 8, java.nio.ByteOrder.BIG_ENDIAN));
        if (route == null) {
            return NO_ROUTE;
        }
        final int hops = Ipv6Header.hopLimit(buffer, ip);
        if (hops <= 1) {
            return TTL_EXPIRED;
        }
        Ipv6Header.hopLimit(buffer, ip, hops - 1);
        EthernetHeader.destination(buffer, frame, route.nextHopMac());
        EthernetHeader.source(buffer, frame, portMacs[route.port()]);
        return route.port();
    }

    /** The longest-prefix IPv6 route for the address {@code high}:{@code low}, or null. */
    public Route6 lookup6(final long high, final long low) {
        for (final Route6 route : routes6) {
            if (route.matches(high, low)) {
                return route;
            }
        }
        return null;
    }

    /** The longest-prefix route for {@code address}, or null. */
    public Route lookup(final int address) {
        for (final int length : lengthsLongestFirst) {
            final int index = byLength[length].get(address & mask(length));
            if (index != MISSING) {
                return routes[index];
            }
        }
        return null;
    }

    /** TTL shares a 16-bit word with the protocol: the checksum changes by the difference in that word. */
    private static void decrementTtl(final UnsafeBuffer buffer, final int ip, final int ttl) {
        final int oldWord = (ttl << 8) | Ipv4Header.protocol(buffer, ip);
        final int newWord = ((ttl - 1) << 8) | Ipv4Header.protocol(buffer, ip);
        Ipv4Header.ttl(buffer, ip, ttl - 1);
        int sum = (~Ipv4Header.checksum(buffer, ip) & 0xFFFF) + (~oldWord & 0xFFFF) + newWord;
        sum = (sum & 0xFFFF) + (sum >>> 16);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        buffer.putShort(ip + Ipv4Header.CHECKSUM_FIELD_OFFSET, (short) ~sum, java.nio.ByteOrder.BIG_ENDIAN);
    }

    private static int mask(final int length) {
        return length == 0 ? 0 : -1 << (32 - length);
    }
}
