package io.trimswitch.switching.source;

import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.switching.record.RunRecorder;

/**
 * Where a virtual-time run's packets come from, in the order they finish arriving at the switch:
 * open-loop senders, or a replayed capture. Packets belong to flows, which the report accounts for.
 */
public interface TrafficSource {
    /** No packet arrives later, in switch time: the longest run, what the virtual-time engine's event keys hold. */
    long LATEST_ARRIVAL_PICOS = Long.MAX_VALUE >>> 20;

    /** When the next packet has fully arrived at its ingress port; {@link Long#MAX_VALUE} when there is none. */
    long nextTime();

    int nextFlow();

    /** Length of the next frame in bytes. */
    int nextLength();

    /**
     * Writes the next packet into {@code handle} (frame, length, ingress port, flow, sequence) and moves on;
     * with {@link PacketPool#NO_PACKET} it only moves on (the packet could not be taken).
     */
    void emit(PacketPool pool, int handle);

    void reset();

    int flows();

    /** The port flow {@code flow} enters on. */
    int flowSource(int flow);

    /** The port it is addressed to, or -1 when that is not one port. */
    int flowDestination(int flow);

    /** How long flow {@code flow} took to send, for goodput; 0 when goodput does not apply. */
    long sendingPicos(int flow);

    /** Every packet the source will emit. */
    long packets();

    /** The longest frame the source emits, in bytes: a pool that keeps frames whole sizes its slots for it. */
    int longestFrame();

    /** Names the traffic in reports: a pattern, or the captures replayed. */
    String description();

    /**
     * Takes {@code source}'s next packet into a fresh buffer of {@code pool}, recording it as sent; one that
     * cannot be taken (larger than a buffer, or no buffer free) is recorded as dropped and
     * {@link PacketPool#NO_PACKET} returned. Both clocks take packets this way.
     */
    static int take(final TrafficSource source, final PacketPool pool, final RunRecorder recorder) {
        return take(source, pool, null, recorder);
    }

    /** The same, the buffer taken from {@code allocate} (a thread's partition of {@code pool}); null: from the pool. */
    static int take(final TrafficSource source, final PacketPool pool, final java.util.function.IntSupplier allocate, final RunRecorder recorder) {
        final int flow = source.nextFlow();
        recorder.sent(flow);
        if (source.nextLength() > pool.slotBytes()) {
            source.emit(pool, PacketPool.NO_PACKET);
            recorder.dropped(flow, DropReason.OVERSIZE);
            return PacketPool.NO_PACKET;
        }
        final int handle = allocate == null ? pool.allocate() : allocate.getAsInt();
        source.emit(pool, handle);
        if (handle == PacketPool.NO_PACKET) {
            recorder.dropped(flow, DropReason.BUFFER_EXHAUSTED);
        }
        return handle;
    }
}
