package io.trimswitch.trafficmanager;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.packet.PacketClass;
import io.trimswitch.dataplane.packet.PacketPool;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * RED-style ECN marking at a data queue, as Ultra Ethernet's NSCC expects it: when a packet leaves, a queue deeper
 * than {@code lowBytes} marks it CE with a probability that rises linearly to one at {@code highBytes}. Only
 * ECN-capable IPv4 packets are marked; the coin is a seeded generator of the port's own, so a run repeats exactly.
 */
public final class EcnMarking {
    private final long lowBytes;
    private final long highBytes;
    private final long seed;
    private long state;
    private long marked;

    public EcnMarking(final long lowBytes, final long highBytes, final long seed) {
        if (lowBytes < 0 || highBytes < lowBytes) {
            throw new IllegalArgumentException("ECN thresholds need 0 <= low <= high, got " + lowBytes + " and " + highBytes);
        }
        this.lowBytes = lowBytes;
        this.highBytes = highBytes;
        this.seed = seed;
        this.state = seed;
    }

    /** Packet {@code handle} leaves a data queue that still holds {@code depthBytes}: marks it CE if the coin says so. */
    void leaving(final PacketPool pool, final int handle, final long depthBytes) {
        if (depthBytes <= lowBytes || (pool.classification(handle) & PacketClass.IPV4) == 0) {
            return;
        }
        if (depthBytes <= highBytes && (next() >>> 33) >= (0x7FFF_FFFFL * (depthBytes - lowBytes)) / Math.max(1, highBytes - lowBytes)) {
            return;
        }
        final UnsafeBuffer buffer = pool.buffer(handle);
        final int ip = pool.offset(handle) + EthernetHeader.LENGTH;
        final int tos = Ipv4Header.tos(buffer, ip);
        if ((tos & 0b11) == 0 || (tos & 0b11) == 0b11) {
            return;
        }
        Ipv4Header.rewriteTosAndLength(buffer, ip, tos | 0b11, Ipv4Header.totalLength(buffer, ip));
        marked++;
    }

    /** Packets marked CE since the last reset. */
    public long marked() {
        return marked;
    }

    void reset() {
        state = seed;
        marked = 0;
    }

    /** SplitMix64. */
    private long next() {
        long z = state += 0x9E37_79B9_7F4A_7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }
}
