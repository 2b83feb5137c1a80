package io.trimswitch.dataplane.counters;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One writer's counters for one port of a live switch, registered in a {@link CounterRegistry} by their names and found by them: a
 * metric by its {@link CounterType}, a drop by its {@link DropReason}. Each is looked up once, when the counters are made;
 * counting then indexes a small table and allocates nothing. Counting what was not registered here is a mistake and
 * throws.
 */
public final class LivePortCounters {
    private static final int NONE = -1;
    private final int port;
    private final CounterBlock block;
    private final int[] metricSlots = new int[CounterType.values().length];
    private final int[] dropSlots = new int[DropReason.values().length];

    /**
     * @param writer  who writes them, for their labels (a thread's name)
     * @param metrics the port's counters of these metrics, then
     * @param drops   a drops counter for each of these reasons
     */
    public LivePortCounters(final CounterRegistry registry, final String writer, final int port, final List<CounterType> metrics,
        final List<DropReason> drops) {
        this(registry, writer, port, "", metrics, drops);
    }

    /** The same, with the metrics named {@code tag} too ({@code thread 1}), so that a port's writers can be told apart. */
    public LivePortCounters(final CounterRegistry registry, final String writer, final int port, final String tag,
        final List<CounterType> metrics, final List<DropReason> drops) {
        this.port = port;
        final List<CounterName> names = new ArrayList<>();
        metrics.forEach(type -> names.add(new CounterName(type, port, 0, tag)));
        drops.forEach(reason -> names.add(reason.at(port)));
        this.block = registry.block(writer, names);
        Arrays.fill(metricSlots, NONE);
        Arrays.fill(dropSlots, NONE);
        metrics.forEach(type -> metricSlots[type.ordinal()] = block.indexOf(new CounterName(type, port, 0, tag)));
        drops.forEach(reason -> dropSlots[reason.ordinal()] = block.indexOf(reason.at(port)));
    }

    public void increment(final CounterType metric) {
        block.increment(slot(metric));
    }

    public void add(final CounterType metric, final long delta) {
        block.add(slot(metric), delta);
    }

    /** For a gauge, which this writer alone sets. */
    public void set(final CounterType metric, final long value) {
        block.set(slot(metric), value);
    }

    public long get(final CounterType metric) {
        return block.get(slot(metric));
    }

    /** One frame dropped for {@code reason}. */
    public void drop(final DropReason reason) {
        block.increment(slot(reason));
    }

    public void drop(final DropReason reason, final long frames) {
        block.add(slot(reason), frames);
    }

    public long dropped(final DropReason reason) {
        return block.get(slot(reason));
    }

    private int slot(final CounterType metric) {
        final int slot = metricSlots[metric.ordinal()];
        if (slot == NONE) {
            throw new IllegalArgumentException("port " + port + " has no " + metric.key() + " counter here");
        }
        return slot;
    }

    private int slot(final DropReason reason) {
        final int slot = dropSlots[reason.ordinal()];
        if (slot == NONE) {
            throw new IllegalArgumentException("port " + port + " counts no " + reason.label() + " drops here");
        }
        return slot;
    }
}
