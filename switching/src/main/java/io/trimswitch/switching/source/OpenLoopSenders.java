package io.trimswitch.switching.source;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.codec.NdpHeader;
import io.trimswitch.dataplane.packet.FrameTemplates;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.WorkloadFrames;
import io.trimswitch.dataplane.time.LinkRate;

import java.util.SplittableRandom;

/**
 * The open-loop workloads: one sender per flow blasting {@code packets} data frames at line rate from a
 * start offset (seeded, within one packet time, unless jitter is off).
 */
public final class OpenLoopSenders implements TrafficSource {
    private final Pattern pattern;
    private final int packetBytes;
    private final int packets;
    private final long packetTime;
    private final SenderSchedule schedule;
    /** One per flow. */
    private final FrameTemplates frames;

    public OpenLoopSenders(
        final Pattern pattern, final int packets, final int packetBytes, final long packetTime, final boolean startJitter,
        final long seed, final int dscp, final int ndpUdpPort) {
        this.pattern = pattern;
        this.packets = packets;
        this.packetBytes = packetBytes;
        this.packetTime = packetTime;
        final long[] firstArrival = new long[pattern.flows()];
        final SplittableRandom jitter = new SplittableRandom(seed);
        for (int flow = 0; flow < pattern.flows(); flow++) {
            final long start = startJitter ? jitter.nextLong(packetTime) : 0;
            firstArrival[flow] = start + packetTime;
        }
        this.schedule = new SenderSchedule(firstArrival, packetTime, packets);
        this.frames = new FrameTemplates(pattern.flows());
        for (int flow = 0; flow < pattern.flows(); flow++) {
            frames.define(flow, packetBytes, pattern.sender(flow), WorkloadFrames.HOST_ID, pattern.receiver(flow), WorkloadFrames.HOST_ID,
                flow, dscp, ndpUdpPort);
        }
    }

    /** The senders of {@code settings}' workload, blasting frames of its first trimmable DSCP. */
    public static OpenLoopSenders forWorkload(final Settings settings) {
        final Pattern pattern = Pattern.of(settings);
        final long packetTime = new LinkRate(settings.portRateBps()).serialisation(settings.workload().packetBytes());
        final int dscp = settings.workloadDscp();
        return new OpenLoopSenders(pattern, settings.workload().packets(), settings.workload().packetBytes(), packetTime,
            settings.workload().startJitter(), settings.workload().seed(), dscp, settings.trim().ndpUdpPort());
    }

    @Override
    public long nextTime() {
        return schedule.nextTime();
    }

    @Override
    public int nextFlow() {
        return schedule.nextFlow();
    }

    @Override
    public int nextLength() {
        return packetBytes;
    }

    @Override
    public void emit(final PacketPool pool, final int handle) {
        final int flow = schedule.nextFlow();
        final int sequence = schedule.nextSequence();
        schedule.advance();
        if (handle == PacketPool.NO_PACKET) {
            return;
        }
        frames.write(pool.buffer(handle), pool.offset(handle), flow, NdpHeader.FLAG_DATA, sequence, 0);
        pool.length(handle, packetBytes);
        pool.ingressPort(handle, pattern.sender(flow));
        pool.flow(handle, flow);
        pool.sequence(handle, sequence);
    }

    @Override
    public void reset() {
        schedule.reset();
    }

    @Override
    public int flows() {
        return pattern.flows();
    }

    @Override
    public int flowSource(final int flow) {
        return pattern.sender(flow);
    }

    @Override
    public int flowDestination(final int flow) {
        return pattern.receiver(flow);
    }

    @Override
    public long sendingPicos(final int flow) {
        return packets * packetTime;
    }

    @Override
    public long packets() {
        return (long) pattern.flows() * packets;
    }

    @Override
    public int longestFrame() {
        return packetBytes;
    }

    @Override
    public String description() {
        return pattern.text();
    }
}
