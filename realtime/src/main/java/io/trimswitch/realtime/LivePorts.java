package io.trimswitch.realtime;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.OffloadHeader;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.counters.LivePortCounters;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.PacketClass;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimKind;
import io.trimswitch.dataplane.time.IngressLinks;
import io.trimswitch.interfaces.InterfacePorts;
import io.trimswitch.interfaces.PortPoller;
import io.trimswitch.pipelines.LearningBridge;
import io.trimswitch.sockets.VxlanPorts;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.realtime.shard.PipelineShard;
import io.trimswitch.realtime.shard.ShardPorts;
import io.trimswitch.realtime.shard.ShardedDataplane;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A live shard's ports: AF_PACKET interfaces and UDP/VXLAN sockets. Each frame read is copied once into a buffer of
 * the shard's partition and arrives no faster than the port's link allows; with {@code forwarding.mode: l2} the
 * shard's copy of the learning bridge chooses its port, or floods it. What leaves the shard's egress ports is sent
 * straight from its buffer, one flush per turn. The shard sleeps in this {@link PortPoller}, over the ports' fds.
 */
final class LivePorts implements ShardPorts, VxlanPorts.FrameHandler, InterfacePorts.FrameHandler {
    /** Why the ports themselves drop a frame they took. */
    private static final List<DropReason> DROPS = List.of(DropReason.BUFFER_EXHAUSTED, DropReason.RX_OVERFLOW, DropReason.FILTERED,
        DropReason.BAD_OFFLOAD, DropReason.RESERVED_GROUP);

    private final PipelineShard shard;
    private final String writer;
    private final PacketPool pool;
    private final AssembledSwitch assembly;
    private final ShardedDataplane dataplane;
    private final IngressLinks links;
    /** Null unless the switch bridges. */
    private final LearningBridge bridge;
    private final BridgeNews news;
    /** Every port of the switch (where a flood goes); the shard's thread alone changes it. */
    private int[] allPorts;
    /**
     * Per port: copies flooded from it, frames flooded (each once, so that readers know how many of the copies were
     * extra), and frames dropped by reason; this thread alone writes them.
     */
    private final LivePortCounters[] counters;
    private final Recorder[] dataDepths;
    private final Recorder[] headerDepths;
    private final Histogram[] dataDepthTotals;
    private final Histogram[] headerDepthTotals;
    /** The recorders' interval histograms, handed back to them at each reading. */
    private final Histogram[] dataIntervals;
    private final Histogram[] headerIntervals;
    /** Where the shard sleeps, and what other threads write to wake it. */
    private final PortPoller poller = new PortPoller();
    /** Null unless some of these ports are UDP sockets. */
    private VxlanPorts sockets;
    /** Null unless some of these ports sit on Linux interfaces. */
    private InterfacePorts interfaces;
    /** Per port: true when it sits on a Linux interface, whose frames carry an offload header in the pool's headroom. */
    private final boolean[] onInterface;
    /** True when the pool keeps an offload header ahead of every frame (the switch has interface ports). */
    private final boolean offloadHeaders;
    /** Per port: its capture while {@code ctl capture} runs one, else null; the control thread sets it. */
    private final AtomicReferenceArray<LiveCapture> captures;

    /** This shard's copy of the learning bridge, into {@code into}; on the shard's thread, between two turns. */
    void macsInto(final java.util.Map<Long, LearnedMac> into) {
        if (bridge == null) {
            return;
        }
        bridge.forEach(dataplane.clock().nowPicos() / 1000, (mac, port, age, isStatic) -> into.merge(mac, new LearnedMac(mac, port, age, isStatic),
            (known, seen) -> seen.ageNanos() < known.ageNanos() ? seen : known));
    }

    LivePorts(
        final PipelineShard shard, final ShardedDataplane dataplane, final IngressLinks links, final int[] allPorts, final LearningBridge bridge,
        final BridgeNews news, final AtomicReferenceArray<LiveCapture> captures) {
        this.shard = shard;
        this.writer = shard.roleName();
        this.dataplane = dataplane;
        this.assembly = dataplane.assembly();
        this.pool = dataplane.pool();
        this.links = links;
        this.allPorts = allPorts.clone();
        this.bridge = bridge;
        this.news = news;
        this.captures = captures;
        final int ports = assembly.ports();
        this.counters = new LivePortCounters[ports];
        this.dataDepths = new Recorder[ports];
        this.headerDepths = new Recorder[ports];
        this.dataDepthTotals = new Histogram[ports];
        this.headerDepthTotals = new Histogram[ports];
        this.dataIntervals = new Histogram[ports];
        this.headerIntervals = new Histogram[ports];
        for (final int port : shard.ownPorts()) {
            makeRoom(port);
        }
        this.offloadHeaders = pool.headroom() >= OffloadHeader.LENGTH;
        this.onInterface = new boolean[ports];
    }

    /** A port's counters and its queues' depth records. */
    private void makeRoom(final int port) {
        counters[port] = new LivePortCounters(assembly.counters(), writer, port, List.of(CounterType.FLOODED_PACKETS, CounterType.FLOODED_FRAMES),
            DROPS);
        dataDepths[port] = new Recorder(1 << 20, 2);
        headerDepths[port] = new Recorder(1 << 20, 2);
        dataDepthTotals[port] = new Histogram(1 << 20, 2);
        headerDepthTotals[port] = new Histogram(1 << 20, 2);
    }

    /** The shard's UDP ports and its interface ports (null for none of either). */
    void sockets(final VxlanPorts ports, final InterfacePorts interfacePorts) {
        this.sockets = ports;
        this.interfaces = interfacePorts;
        if (interfacePorts != null) {
            interfacePorts.wakeOnFrames(poller);
            for (final InterfacePorts.Attachment attachment : interfacePorts.attachments()) {
                onInterface[attachment.port()] = true;
            }
        }
    }

    /**
     * On the shard's thread: takes interface port {@code port}, of one of its pipelines, which the switch did not start
     * with, and attaches it to {@code interfaceName}; floods reach it from now on.
     */
    void adopt(final int port, final String interfaceName) {
        // Once only: a change that timed out for its caller still runs, and the caller may ask again.
        if (shard.owns(port)) {
            return;
        }
        makeRoom(port);
        onInterface[port] = true;
        shard.addPort(port);
        interfaces.adopt(port, interfaceName);
        floodAlsoTo(port);
    }

    /** On the shard's thread: floods reach port {@code port} too, which another shard took while the switch runs. */
    void floodAlsoTo(final int port) {
        for (final int each : allPorts) {
            if (each == port) {
                return;
            }
        }
        allPorts = java.util.Arrays.copyOf(allPorts, allPorts.length + 1);
        allPorts[allPorts.length - 1] = port;
    }

    /** UDP sockets are read on every turn, so their binding too happens at the shard's first turns. */
    @Override
    public int poll() {
        return sockets == null ? 0 : sockets.poll();
    }

    @Override
    public int receive() {
        int work = interfaces == null ? 0 : interfaces.followLinks() + interfaces.receive();
        if (news != null) {
            work += news.drain(dataplane.clock().nowPicos() / 1000);
        }
        return work;
    }

    /** A frame read later arrives later: egress may go up to now. */
    @Override
    public long horizon(final long now) {
        return now;
    }

    @Override
    public void onFrame(final int port, final UnsafeBuffer buffer, final int offset, final int length) {
        final long now = dataplane.clock().nowPicos();
        // A capture sees every frame the port received, those the switch then refuses too, as tcpdump on the link would.
        final LiveCapture capture = port < captures.length() ? captures.get(port) : null;
        if (capture != null) {
            capture.received(now, buffer, offset, length);
        }
        if (length >= EthernetHeader.LENGTH && EthernetHeader.isReservedGroup(EthernetHeader.destination(buffer, offset))) {
            // Whatever the forwarding mode: such a frame is for the link it came on, never for another port.
            counters[port].drop(DropReason.RESERVED_GROUP);
            return;
        }
        final long arrival = links.arrival(port, length, now);
        if (bridge == null) {
            admit(port, buffer, offset, length, -1, arrival);
            return;
        }
        final long nowNanos = now / 1000;
        final long source = EthernetHeader.source(buffer, offset);
        news.learned(source, port, nowNanos, bridge.learn(source, port, nowNanos));
        final int egress = bridge.lookup(EthernetHeader.destination(buffer, offset), nowNanos);
        if (egress == port) {
            // The destination lives behind the port it came from: nothing to forward.
            counters[port].drop(DropReason.FILTERED);
            return;
        }
        if (egress != LearningBridge.FLOOD) {
            admit(port, buffer, offset, length, egress, arrival);
            return;
        }
        if (PacketClass.isMalformed(PacketClass.classify(buffer, offset, length, assembly.trimSettings()))) {
            // A frame the pipeline will refuse goes in once, without a port to go to: its drop is counted once, where it came in.
            admit(port, buffer, offset, length, -1, arrival);
            return;
        }
        int copies = 0;
        for (final int other : allPorts) {
            if (other != port) {
                copies++;
                counters[port].increment(CounterType.FLOODED_PACKETS);
                admit(port, buffer, offset, length, other, arrival);
            }
        }
        // The frame itself was counted when it came in; its copies beyond the first are what flooding added.
        if (copies == 0) {
            counters[port].drop(DropReason.FILTERED);
        } else {
            counters[port].increment(CounterType.FLOODED_FRAMES);
        }
    }

    /** Copies the frame into a buffer of the shard's own and lets it wait for its arrival time. */
    private void admit(final int port, final DirectBuffer buffer, final int offset, final int length, final int egress, final long arrival) {
        if (!shard.hasRoom(port)) {
            counters[port].drop(DropReason.RX_OVERFLOW);
            return;
        }
        final int handle = shard.allocate();
        if (handle == PacketPool.NO_PACKET) {
            counters[port].drop(DropReason.BUFFER_EXHAUSTED);
            return;
        }
        final UnsafeBuffer frames = pool.buffer(handle);
        final int at = pool.offset(handle);
        if (!offloadHeaders) {
            frames.putBytes(at, buffer, offset, length);
        } else if (onInterface[port]) {
            frames.putBytes(at - OffloadHeader.LENGTH, buffer, offset - OffloadHeader.LENGTH, length + OffloadHeader.LENGTH);
        } else {
            OffloadHeader.clear(frames, at - OffloadHeader.LENGTH);
            frames.putBytes(at, buffer, offset, length);
        }
        pool.length(handle, length);
        pool.ingressPort(handle, port);
        pool.egressPort(handle, egress);
        shard.arrive(port, handle, arrival);
    }

    @Override
    public void onBatchEnd() {
    }

    /** The packet has left its port: its socket sends it with this turn's flush. */
    @Override
    public void departed(final int port, final int handle, final long time) {
        // The queues' depths as each packet leaves: their distribution over the switch's life.
        dataDepths[port].recordValue(assembly.port(port).dataQueue().size());
        headerDepths[port].recordValue(assembly.port(port).headerQueue().size());
        final LiveCapture capture = port < captures.length() ? captures.get(port) : null;
        if (capture != null) {
            capture.sent(time, pool.buffer(handle), pool.offset(handle), pool.length(handle));
        }
        if (onInterface[port]) {
            // Sent straight from its buffer, which the interface gives back once the kernel has the frame.
            interfaces.send(port, handle);
            return;
        }
        final UnsafeBuffer frames = pool.buffer(handle);
        final int at = pool.offset(handle);
        // A tunnel completes no checksum that an interface's host left to offload: the switch does it, unless trimmed.
        if (!offloadHeaders || pool.trimKind(handle) != TrimKind.NONE
            || OffloadHeader.completeChecksum(frames, at - OffloadHeader.LENGTH, at, pool.length(handle))) {
            sockets.send(port, frames, at, pool.length(handle));
        } else {
            counters[port].drop(DropReason.BAD_OFFLOAD);
        }
        dataplane.release(handle);
    }

    /** The interface refused the frame after its egress port counted it as sent: it is counted only as the interface's drop. */
    @Override
    public void onRefused(final int port, final int handle) {
        assembly.port(port).counters().transmissionRefused(pool.length(handle), pool.trimKind(handle) != TrimKind.NONE);
    }

    /** Sends what this turn's egress gave the ports. */
    @Override
    public void flush() {
        if (sockets != null) {
            sockets.flush();
        }
        if (interfaces != null) {
            interfaces.flush();
        }
    }

    @Override
    public boolean hasUnsent() {
        return sockets != null && sockets.hasUnsent();
    }

    @Override
    public void await(final long nanos) {
        poller.await(nanos == PipelineShard.UNTIL_WOKEN ? PortPoller.FOREVER : nanos);
    }

    @Override
    public void wake() {
        poller.wake();
    }

    /** After the shard's last turn: its UDP sockets close. */
    @Override
    public void close() {
        if (sockets != null) {
            sockets.close();
        }
    }

    /** Once the thread has ended. */
    void closePoller() {
        poller.close();
    }

    PortPoller poller() {
        return poller;
    }

    /** The depth distribution of {@code port}'s data (or header) queue seen by departing packets, so far. */
    synchronized Histogram depths(final int port, final boolean data) {
        return addInterval(port, data).copy();
    }

    /**
     * The same at {@code percentiles}, into {@code values}, without a copy: what the gauges sample ten times a second.
     * Returns false, {@code values} untouched, when no packet departed since the last call: the distribution is as it
     * was, and an idle switch skips the scans of every bucket.
     */
    synchronized boolean depthsAt(final int port, final boolean data, final double[] percentiles, final long[] values) {
        final Histogram[] intervals = data ? dataIntervals : headerIntervals;
        intervals[port] = (data ? dataDepths : headerDepths)[port].getIntervalHistogram(intervals[port]);
        if (intervals[port].getTotalCount() == 0) {
            return false;
        }
        final Histogram total = data ? dataDepthTotals[port] : headerDepthTotals[port];
        total.add(intervals[port]);
        for (int i = 0; i < percentiles.length; i++) {
            values[i] = total.getValueAtPercentile(percentiles[i]);
        }
        return true;
    }

    /** The port's total so far, with what the recorder took since the last call; its interval histogram reused. */
    private Histogram addInterval(final int port, final boolean data) {
        final Histogram[] intervals = data ? dataIntervals : headerIntervals;
        intervals[port] = (data ? dataDepths : headerDepths)[port].getIntervalHistogram(intervals[port]);
        final Histogram total = data ? dataDepthTotals[port] : headerDepthTotals[port];
        total.add(intervals[port]);
        return total;
    }
}
