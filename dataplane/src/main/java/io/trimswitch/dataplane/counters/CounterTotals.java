package io.trimswitch.dataplane.counters;

import org.agrona.concurrent.status.CountersReader;

import java.util.EnumMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A moment's reading of a registry's switch counters, added up per port over the threads that write them: what
 * {@code stats}, the metrics endpoint and the live switch's own view show. Entries that are not the switch's (another
 * type id) are left out.
 */
public final class CounterTotals {
    private final SortedSet<Integer> ports = new TreeSet<>();
    private final Map<Integer, Map<CounterType, PerType>> byPort = new TreeMap<>();

    /** One metric of one port: its total, its totals by name and by index, and the name each index goes by. */
    private static final class PerType {
        long total;
        final SortedMap<String, Long> byName = new TreeMap<>();
        final SortedMap<Integer, Long> byIndex = new TreeMap<>();
        final Map<Integer, String> names = new TreeMap<>();
    }

    private CounterTotals() {
    }

    /** Reads every allocated counter of {@code reader} once. */
    public static CounterTotals read(final CountersReader reader) {
        final CounterTotals totals = new CounterTotals();
        reader.forEach((CountersReader.MetaData) (id, typeId, key, label) -> {
            final CounterType type = CounterType.of(typeId);
            if (type == null) {
                return;
            }
            final int port = CounterKey.port(key);
            final int index = CounterKey.index(key);
            final String name = CounterKey.name(key);
            final long value = reader.getCounterValue(id);
            totals.ports.add(port);
            final PerType entry = totals.byPort.computeIfAbsent(port, p -> new EnumMap<>(CounterType.class))
                .computeIfAbsent(type, t -> new PerType());
            entry.total += value;
            entry.byName.merge(name, value, Long::sum);
            entry.byIndex.merge(index, value, Long::sum);
            entry.names.putIfAbsent(index, name);
        });
        return totals;
    }

    /** Ports that have counters, in order. */
    public SortedSet<Integer> ports() {
        return ports;
    }

    /** Whether {@code port} has any counter of {@code type}. */
    public boolean has(final int port, final CounterType type) {
        return entry(port, type) != null;
    }

    /** {@code port}'s counters of {@code type} added up (0 when it has none). */
    public long get(final int port, final CounterType type) {
        final PerType entry = entry(port, type);
        return entry == null ? 0 : entry.total;
    }

    /** {@code port}'s counters of {@code type} added up by name (drops by reason, trims by kind), in name order. */
    public SortedMap<String, Long> byName(final int port, final CounterType type) {
        final PerType entry = entry(port, type);
        return entry == null ? new TreeMap<>() : new TreeMap<>(entry.byName);
    }

    /** {@code port}'s counters of {@code type} added up by index (a traffic class's queue), in index order. */
    public SortedMap<Integer, Long> byIndex(final int port, final CounterType type) {
        final PerType entry = entry(port, type);
        return entry == null ? new TreeMap<>() : new TreeMap<>(entry.byIndex);
    }

    /** The name that {@code port}'s counters of {@code type} at {@code index} go by ("" when none). */
    public String name(final int port, final CounterType type, final int index) {
        final PerType entry = entry(port, type);
        return entry == null ? "" : entry.names.getOrDefault(index, "");
    }

    private PerType entry(final int port, final CounterType type) {
        final Map<CounterType, PerType> types = byPort.get(port);
        return types == null ? null : types.get(type);
    }
}
