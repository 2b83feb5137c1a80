package io.trimswitch.pipelines;

import io.trimswitch.dataplane.codec.EthernetHeader;
import org.agrona.collections.Long2LongHashMap;

import java.util.Map;

/**
 * An Ethernet learning bridge: source MACs are learned per port and forgotten after the aging time;
 * static entries never age and are never relearned; broadcast, multicast and unknown destinations are
 * flooded. One thread owns it (a pipeline thread of the live switch), so it needs no locking and allocates
 * nothing once its table has grown; with several threads, each keeps a copy and tells the others its news.
 */
public final class LearningBridge {
    /** The destination is unknown, broadcast or multicast: send to every port but the ingress. */
    public static final int FLOOD = ForwardingStage.FLOOD;
    private static final long MISSING = -1;
    private static final int PORT_BITS = 16;
    private static final long PORT_MASK = (1 << PORT_BITS) - 1;

    private final long agingNanos;
    private final Long2LongHashMap learned = new Long2LongHashMap(1024, 0.6f, MISSING);
    private final Long2LongHashMap fixed = new Long2LongHashMap(64, 0.6f, MISSING);

    /** @param staticEntries MAC (48 bits) → port */
    public LearningBridge(final long agingNanos, final Map<Long, Integer> staticEntries) {
        if (agingNanos <= 0) {
            throw new IllegalArgumentException("aging time must be positive, got " + agingNanos + " ns");
        }
        this.agingNanos = agingNanos;
        staticEntries.forEach((mac, port) -> fixed.put(mac, port));
    }

    /**
     * A frame from {@code mac} arrived on {@code port} at {@code nowNanos}. Returns true when that is news:
     * the address was unknown (or aged out) or has moved to another port.
     */
    public boolean learn(final long mac, final int port, final long nowNanos) {
        if (isGroup(mac) || fixed.containsKey(mac)) {
            return false;
        }
        final long previous = learned.put(mac, (nowNanos << PORT_BITS) | port);
        return previous == MISSING || (previous & PORT_MASK) != port || nowNanos - (previous >>> PORT_BITS) > agingNanos;
    }

    /** The port for {@code mac}, or {@link #FLOOD}. */
    public int lookup(final long mac, final long nowNanos) {
        if (isGroup(mac)) {
            return FLOOD;
        }
        final long fixedPort = fixed.get(mac);
        if (fixedPort != MISSING) {
            return (int) fixedPort;
        }
        final long entry = learned.get(mac);
        if (entry == MISSING) {
            return FLOOD;
        }
        if (nowNanos - (entry >>> PORT_BITS) > agingNanos) {
            learned.remove(mac);
            return FLOOD;
        }
        return (int) (entry & PORT_MASK);
    }

    /** What {@link #forEach} hands over: an address, its port, how long ago it was last seen, and whether it is static. */
    @FunctionalInterface
    public interface Entry {
        void accept(long mac, int port, long ageNanos, boolean isStatic);
    }

    /** Every static address (age 0), then every learned one not yet aged out at {@code nowNanos}; on the owning thread. */
    public void forEach(final long nowNanos, final Entry entry) {
        fixed.forEachLong((mac, port) -> entry.accept(mac, (int) port, 0, true));
        learned.forEachLong((mac, value) -> {
            final long age = nowNanos - (value >>> PORT_BITS);
            if (age <= agingNanos) {
                entry.accept(mac, (int) (value & PORT_MASK), Math.max(0, age), false);
            }
        });
    }

    /** Learned entries, aged or not. */
    public int size() {
        return learned.size();
    }

    /** Broadcast and multicast addresses have the group bit, the lowest bit of the first octet. */
    private static boolean isGroup(final long mac) {
        return mac == EthernetHeader.BROADCAST || ((mac >>> 40) & 1) != 0;
    }
}
