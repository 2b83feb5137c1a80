package io.trimswitch.uet;

import io.trimswitch.dataplane.packet.FrameTemplates;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.simulator.EndHosts;
import io.trimswitch.simulator.Fabric;
import io.trimswitch.simulator.HostLinkTimeline;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * The hosts' links as UET frames travel them, on the timeline every transport's hosts share ({@link HostLinkTimeline}):
 * a frame reaches the switch a propagation delay after its last bit left; only then is it built in a buffer of the
 * switch's pool, from the flow's template, its UET state written after the shim. Data is sent ECN-capable. Each link keeps its frames in
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

    private final int packetBytes;
    private final FrameTemplates templates;
    private final Fabric.EntropyPaths paths;
    /** The links every transport's hosts share, each frame three entries. */
    private final HostLinkTimeline timeline;
    /** Per link, the flows waiting for it, in turn. */
    private final int[][] waiting;
    private final int[] waitingHead;
    private final int[] waitingCount;
    private final boolean[] queued;

    /** Links for flows sent from host {@code senderOf[f]}. */
    UetWire(final int[] senderOf, final int links, final long propagation, final int packetBytes, final long packetTime, final long controlTime,
        final FrameTemplates templates, final Fabric.EntropyPaths paths) {
        this.packetBytes = packetBytes;
        this.templates = templates;
        this.paths = paths;
        final long[] packetTimes = new long[links];
        final long[] controlTimes = new long[links];
        Arrays.fill(packetTimes, packetTime);
        Arrays.fill(controlTimes, controlTime);
        timeline = new HostLinkTimeline(packetTimes, controlTimes, propagation, FIFO_ENTRIES);
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
        return timeline.free(link);
    }

    /** Puts a frame on {@code link} behind whatever is already on it: three entries of the link's FIFO, at its arrival. */
    void transmit(final EndHosts.Switch sw, final int link, final long now, final int kind, final int flags, final int flow, final int psn,
        final int entropy, final int cumulative, final int received, final int sackBase, final long sackBits) {
        final long arrival = timeline.send(link, now, kind == KIND_DATA);
        timeline.put(sw, link, arrival, kind << 24 | (flags & 0xFF) << 16 | flow, psn << 16 | entropy);
        timeline.put(sw, link, arrival, cumulative << 16 | received, sackBase);
        timeline.put(sw, link, arrival, (int) (sackBits >>> 32), (int) sackBits);
    }

    /** The frame at the head of {@code link} reaches the switch: it is built in a buffer and handed to ingress. */
    void arrive(final EndHosts.Switch sw, final int link, final long now) {
        final int kind = timeline.headFirst(link) >>> 24;
        final int flags = (timeline.headFirst(link) >>> 16) & 0xFF;
        final int flow = timeline.headFirst(link) & 0xFFFF;
        final int psn = timeline.headSecond(link) >>> 16;
        final int entropy = timeline.headSecond(link) & 0xFFFF;
        timeline.removeHead(link);
        final int cumulative = timeline.headFirst(link) >>> 16;
        final int received = timeline.headFirst(link) & 0xFFFF;
        final int sackBase = timeline.headSecond(link);
        timeline.removeHead(link);
        final long sackBits = (long) timeline.headFirst(link) << 32 | (timeline.headSecond(link) & 0xFFFF_FFFFL);
        timeline.removeHead(link);
        timeline.next(sw, link);
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
        timeline.reset();
        Arrays.fill(waitingHead, 0);
        Arrays.fill(waitingCount, 0);
        Arrays.fill(queued, false);
    }
}
