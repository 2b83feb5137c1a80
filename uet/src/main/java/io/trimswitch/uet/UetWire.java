package io.trimswitch.uet;

import io.trimswitch.dataplane.packet.FrameTemplates;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.util.TimedIntFifo;
import io.trimswitch.simulator.EndHosts;
import io.trimswitch.simulator.EventType;
import io.trimswitch.simulator.Fabric;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * The hosts' links as UET frames travel them: a frame goes out behind whatever is on its link, at line rate, and reaches
 * the switch a propagation delay after its last bit left; only then is it built in a buffer of the switch's pool, from
 * the flow's template, its UET state written after the shim. Data is sent ECN-capable. Each link keeps its frames in
 * flight as three entries of a FIFO: kind, flags, flow, PSN and entropy; cumulative ACK, count held and SACK base; the
 * 64-bit SACK map (a data packet's RCCC pull target, a PULL's pull number). The flows of a host that wait for its link
 * take turns.
 */
final class UetWire {
    static final int SHIM_OFFSET = 14 + 20 + 8;
    static final int KIND_DATA = 0;
    static final int KIND_ACK = 1;
    static final int KIND_NACK = 2;
    static final int KIND_PULL = 3;
    /** Entries of a link's FIFO per frame. */
    private static final int FIFO_ENTRIES = 3;

    private final long propagation;
    private final int packetBytes;
    private final long packetTime;
    private final long controlTime;
    private final FrameTemplates templates;
    private final Fabric.EntropyPaths paths;
    private final long[] linkFree;
    private final TimedIntFifo[] onLink;
    /** Per link, the flows waiting for it, in turn. */
    private final int[][] waiting;
    private final int[] waitingHead;
    private final int[] waitingCount;
    private final boolean[] queued;

    /** Links for flows sent from host {@code senderOf[f]}. */
    UetWire(final int[] senderOf, final int links, final long propagation, final int packetBytes, final long packetTime, final long controlTime,
        final FrameTemplates templates, final Fabric.EntropyPaths paths) {
        this.propagation = propagation;
        this.packetBytes = packetBytes;
        this.packetTime = packetTime;
        this.controlTime = controlTime;
        this.templates = templates;
        this.paths = paths;
        linkFree = new long[links];
        onLink = new TimedIntFifo[links];
        for (int link = 0; link < links; link++) {
            onLink[link] = TimedIntFifo.ofPairs(64);
        }
        final int[] perLink = new int[links];
        for (final int link : senderOf) {
            perLink[link]++;
        }
        waiting = new int[links][];
        for (int link = 0; link < links; link++) {
            waiting[link] = new int[Math.max(1, perLink[link])];
        }
        waitingHead = new int[links];
        waitingCount = new int[links];
        queued = new boolean[senderOf.length];
    }

    /** {@code flow} waits for {@code link}, behind the flows already waiting (if it does not wait already). */
    void await(final int link, final int flow) {
        if (!queued[flow]) {
            queued[flow] = true;
            waiting[link][(waitingHead[link] + waitingCount[link]++) % waiting[link].length] = flow;
        }
    }

    /** The first flow waiting for {@code link}, no longer waiting; -1 if none waits. */
    int next(final int link) {
        if (waitingCount[link] == 0) {
            return -1;
        }
        final int flow = waiting[link][waitingHead[link]];
        waitingHead[link] = (waitingHead[link] + 1) % waiting[link].length;
        waitingCount[link]--;
        queued[flow] = false;
        return flow;
    }

    /** How many flows wait for {@code link}. */
    int waiting(final int link) {
        return waitingCount[link];
    }

    /** When {@code link} has sent what it holds. */
    long free(final int link) {
        return linkFree[link];
    }

    /** Puts a frame on {@code link} behind whatever is already on it: three entries of the link's FIFO, at its arrival. */
    void transmit(final EndHosts.Switch sw, final int link, final long now, final int kind, final int flags, final int flow, final int psn,
        final int entropy, final int cumulative, final int received, final int sackBase, final long sackBits) {
        final long begin = Math.max(now, linkFree[link]);
        linkFree[link] = begin + (kind == KIND_DATA ? packetTime : controlTime);
        final long arrival = linkFree[link] + propagation;
        final TimedIntFifo fifo = onLink[link];
        fifo.add(arrival, kind << 24 | (flags & 0xFF) << 16 | flow, psn << 16 | entropy);
        fifo.add(arrival, cumulative << 16 | received, sackBase);
        fifo.add(arrival, (int) (sackBits >>> 32), (int) sackBits);
        if (fifo.size() == FIFO_ENTRIES) {
            sw.schedule(arrival, EventType.LINK_TO_SWITCH, link);
        }
    }

    /** The frame at the head of {@code link} reaches the switch: it is built in a buffer and handed to ingress. */
    void arrive(final EndHosts.Switch sw, final int link, final long now) {
        final TimedIntFifo fifo = onLink[link];
        final int kind = fifo.headFirst() >>> 24;
        final int flags = (fifo.headFirst() >>> 16) & 0xFF;
        final int flow = fifo.headFirst() & 0xFFFF;
        final int psn = fifo.headSecond() >>> 16;
        final int entropy = fifo.headSecond() & 0xFFFF;
        fifo.removeHead();
        final int cumulative = fifo.headFirst() >>> 16;
        final int received = fifo.headFirst() & 0xFFFF;
        final int sackBase = fifo.headSecond();
        fifo.removeHead();
        final long sackBits = (long) fifo.headFirst() << 32 | (fifo.headSecond() & 0xFFFF_FFFFL);
        fifo.removeHead();
        if (!fifo.isEmpty()) {
            sw.schedule(fifo.headTime(), EventType.LINK_TO_SWITCH, link);
        }
        final boolean data = kind == KIND_DATA;
        final int handle = sw.allocate();
        if (handle == PacketPool.NO_PACKET) {
            sw.noBuffer(flow, !data);
            return;
        }
        final PacketPool pool = sw.pool();
        final UnsafeBuffer buffer = pool.buffer(handle);
        final int frame = pool.offset(handle);
        templates.write(buffer, frame, data ? 2 * flow : 2 * flow + 1, flags, psn, cumulative, paths.path(flow, data, entropy));
        UetHeader.writeState(buffer, frame + SHIM_OFFSET, entropy, received, sackBase, sackBits);
        if (data) {
            UetHeader.ecn(buffer, frame, UetHeader.ECT0);
        }
        pool.length(handle, data ? packetBytes : UetHosts.CONTROL_BYTES);
        pool.ingressPort(handle, link);
        pool.flow(handle, flow);
        pool.sequence(handle, psn);
        sw.inject(handle, !data, now);
    }

    void reset() {
        Arrays.fill(linkFree, 0);
        Arrays.fill(waitingHead, 0);
        Arrays.fill(waitingCount, 0);
        Arrays.fill(queued, false);
        for (final TimedIntFifo fifo : onLink) {
            fifo.clear();
        }
    }
}
