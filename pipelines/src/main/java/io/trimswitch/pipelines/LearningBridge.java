package io.trimswitch.pipelines;

import io.trimswitch.dataplane.codec.EthernetHeader;
import org.agrona.collections.Long2LongHashMap;

import java.util.Map;

/**
 * An Ethernet learning bridge: source MACs are learned per port and forgotten after the aging time;
 * static entries never age and are never relearned; broadcast, multicast and unknown destinations are
 * flooded. Its table holds at most a given number of learned addresses, as a switch's does: a host that sends from
 * ever new addresses fills it, and then a new address is learned only once an old one has aged out (frames to the
 * others are flooded meanwhile); the table never grows past its size, so such a host costs no memory and no garbage.
 * One thread owns it (a pipeline thread of the live switch), so it needs no locking and allocates nothing;
 * with several threads, each keeps a copy and tells the others its news.
 */
public final class LearningBridge {
    /** The destination is unknown, broadcast or multicast: send to every port but the ingress. */
    public static final int FLOOD = ForwardingStage.FLOOD;
    /** The largest table a bridge may have ({@code forwarding.macTableSize}): its map is allocated whole at the start. */
    public static final int MOST_ADDRESSES = 1 << 20;
    private static final long MISSING = -1;
    private static final float LOAD_FACTOR = 0.6f;
    /** A full table looks for aged addresses to forget at most this often: a scan per frame would cost a core. */
    private static final long PURGE_EVERY_NANOS = 1_000_000_000L;
    private static final int PORT_BITS = 16;
    private static final long PORT_MASK = (1 << PORT_BITS) - 1;

    private final long agingNanos;
    private final int capacity;
    private final Long2LongHashMap learned;
    private final Long2LongHashMap fixed = new Long2LongHashMap(64, LOAD_FACTOR, MISSING);
    /** Addresses not learned because the table was full, and when a full table last looked for aged ones. */
    private long refused;
    private long lastPurgeNanos = Long.MIN_VALUE;

    /**
     * @param capacity      the most learned addresses the table holds (1..{@link #MOST_ADDRESSES})
     * @param staticEntries MAC (48 bits) → port
     */
    public LearningBridge(final long agingNanos, final int capacity, final Map<Long, Integer> staticEntries) {
        if (agingNanos <= 0) {
            throw new IllegalArgumentException("aging time must be positive, got " + agingNanos + " ns");
        }
        if (capacity < 1 || capacity > MOST_ADDRESSES) {
            throw new IllegalArgumentException("a MAC table holds 1.." + MOST_ADDRESSES + " addresses, got " + capacity);
        }
        this.agingNanos = agingNanos;
        this.capacity = capacity;
        // Room for the whole table from the start: it never grows, so it never rehashes.
        this.learned = new Long2LongHashMap((int) Math.ceil((capacity + 1) / LOAD_FACTOR) + 1, LOAD_FACTOR, MISSING);
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
        if (learned.size() >= capacity && !learned.containsKey(mac) && !roomFor(nowNanos)) {
            refused++;
            return false;
        }
        final long previous = learned.put(mac, (nowNanos << PORT_BITS) | port);
        return previous == MISSING || (previous & PORT_MASK) != port || nowNanos - (previous >>> PORT_BITS) > agingNanos;
    }

    /** Whether a full table made room, forgetting the addresses aged out by {@code nowNanos}: at most once a second. */
    private boolean roomFor(final long nowNanos) {
        if (lastPurgeNanos != Long.MIN_VALUE && nowNanos - lastPurgeNanos < PURGE_EVERY_NANOS) {
            return false;
        }
        lastPurgeNanos = nowNanos;
        final Long2LongHashMap.EntryIterator entries = learned.entrySet().iterator();
        while (entries.hasNext()) {
            entries.next();
            if (nowNanos - (entries.getLongValue() >>> PORT_BITS) > agingNanos) {
                entries.remove();
            }
        }
        return learned.size() < capacity;
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

    /** The most learned entries the table holds. */
    public int capacity() {
        return capacity;
    }

    /** Addresses this table did not learn because it was full of addresses not yet aged out. */
    public long refused() {
        return refused;
    }

    /** Broadcast and multicast addresses have the group bit, the lowest bit of the first octet. */
    private static boolean isGroup(final long mac) {
        return mac == EthernetHeader.BROADCAST || ((mac >>> 40) & 1) != 0;
    }
}
