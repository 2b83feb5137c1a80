package io.trimswitch.realtime;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.io.VxlanPorts;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.pipeline.LearningBridge;
import io.trimswitch.runtime.SwitchFabric;
import io.trimswitch.tm.HandleRing;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.agrona.DirectBuffer;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The live switch's ports on their I/O thread, which owns the packet pool. A frame that arrives is
 * copied once into a pooled buffer, stamped with its arrival, and put on the receive ring of its port's
 * pipeline; with a learning bridge, the frame's source is learned and its destination looked up here,
 * one copy per port when it floods. Egress threads put what has left a port on that port's transmit
 * ring and wake this thread, which sends each batch at once and takes the buffers back.
 */
final class SocketPorts implements VxlanPorts.FrameHandler, EgressAgent.Departures {
    /** Why a frame did not make it into the switch, besides the datagram-level reasons. */
    enum Refused {
        BUFFER_EXHAUSTED("bufferExhausted"),
        RX_OVERFLOW("rxOverflow"),
        FILTERED("filtered"),
        TX_OVERFLOW("txOverflow");

        private final String label;

        Refused(final String label) {
            this.label = label;
        }

        String label() {
            return label;
        }
    }

    private final PacketPool pool;
    private final HandleRing returns;
    private final HandleRing[] rxRings;
    private final HandleRing[] txRings;
    private final SwitchFabric fabric;
    private final DilatedClock clock;
    /** Null unless the switch bridges. */
    private final LearningBridge bridge;
    private final int[] attachedPorts;
    private final long[][] refused;
    private final long[] flooded;
    /** Written by the port's egress thread, read by whoever asks for the counters. */
    private final Recorder[] dataDepths;
    private final Recorder[] headerDepths;
    private final Histogram[] dataDepthTotals;
    private final Histogram[] headerDepthTotals;
    private final AtomicBoolean transmitScheduled = new AtomicBoolean();
    private final HandleRing.HandleConsumer reclaim;
    private final HandleRing.HandleConsumer transmit = this::transmit;
    private final Runnable transmitAll = this::transmitAll;
    private VxlanPorts sockets;
    private int transmitting;

    SocketPorts(
        final PacketPool pool, final HandleRing returns, final HandleRing[] rxRings, final SwitchFabric fabric,
        final DilatedClock clock, final LearningBridge bridge, final int[] attachedPorts, final int txRingPackets) {
        this.pool = pool;
        this.returns = returns;
        this.rxRings = rxRings;
        this.fabric = fabric;
        this.clock = clock;
        this.bridge = bridge;
        this.attachedPorts = attachedPorts.clone();
        this.txRings = new HandleRing[fabric.ports()];
        for (int port = 0; port < txRings.length; port++) {
            txRings[port] = new HandleRing(txRingPackets, false);
        }
        this.refused = new long[fabric.ports()][Refused.values().length];
        this.flooded = new long[fabric.ports()];
        this.dataDepths = new Recorder[fabric.ports()];
        this.headerDepths = new Recorder[fabric.ports()];
        this.dataDepthTotals = new Histogram[fabric.ports()];
        this.headerDepthTotals = new Histogram[fabric.ports()];
        for (int port = 0; port < txRings.length; port++) {
            dataDepths[port] = new Recorder(1 << 20, 2);
            headerDepths[port] = new Recorder(1 << 20, 2);
            dataDepthTotals[port] = new Histogram(1 << 20, 2);
            headerDepthTotals[port] = new Histogram(1 << 20, 2);
        }
        this.reclaim = pool::free;
    }

    void sockets(final VxlanPorts ports) {
        this.sockets = ports;
    }

    @Override
    public void onFrame(final int port, final DirectBuffer buffer, final int offset, final int length) {
        final long now = clock.nowPicos();
        if (bridge == null) {
            admit(port, buffer, offset, length, -1, now);
            return;
        }
        final long nowNanos = now / 1000;
        bridge.learn(EthernetHeader.source(buffer, offset), port, nowNanos);
        final int egress = bridge.lookup(EthernetHeader.destination(buffer, offset), nowNanos);
        if (egress == port) {
            // The destination lives behind the port it came from: nothing to forward.
            refused[port][Refused.FILTERED.ordinal()]++;
            return;
        }
        if (egress != LearningBridge.FLOOD) {
            admit(port, buffer, offset, length, egress, now);
            return;
        }
        for (final int other : attachedPorts) {
            if (other != port) {
                flooded[port]++;
                admit(port, buffer, offset, length, other, now);
            }
        }
    }

    /** Copies the frame into a buffer of its own and hands it to its ingress pipeline. */
    private void admit(final int port, final DirectBuffer buffer, final int offset, final int length, final int egress, final long now) {
        int handle = pool.allocate();
        if (handle == PacketPool.NO_PACKET) {
            returns.drain(reclaim, Integer.MAX_VALUE);
            handle = pool.allocate();
            if (handle == PacketPool.NO_PACKET) {
                refused[port][Refused.BUFFER_EXHAUSTED.ordinal()]++;
                return;
            }
        }
        pool.buffer(handle).putBytes(pool.offset(handle), buffer, offset, length);
        pool.length(handle, length);
        pool.ingressPort(handle, port);
        pool.egressPort(handle, egress);
        pool.arrivalPicos(handle, now);
        if (!rxRings[fabric.pipelineOf(port)].offer(handle)) {
            refused[port][Refused.RX_OVERFLOW.ordinal()]++;
            pool.free(handle);
        }
    }

    @Override
    public void onBatchEnd() {
        returns.drain(reclaim, Integer.MAX_VALUE);
    }

    /** On an egress thread: the packet has left its port; this thread sends it. */
    @Override
    public void departed(final int port, final int handle, final long time) {
        // The queues' depths as each packet leaves: their distribution over the switch's life.
        dataDepths[port].recordValue(fabric.port(port).dataQueue().size());
        headerDepths[port].recordValue(fabric.port(port).headerQueue().size());
        if (!txRings[port].offer(handle)) {
            refused[port][Refused.TX_OVERFLOW.ordinal()]++;
            returns.offer(handle);
        }
        if (!transmitScheduled.get() && transmitScheduled.compareAndSet(false, true)) {
            sockets.execute(transmitAll);
        }
    }

    /** On the I/O thread: everything waiting to be sent goes, a batch per port. */
    private void transmitAll() {
        transmitScheduled.set(false);
        for (int port = 0; port < txRings.length; port++) {
            transmitting = port;
            txRings[port].drain(transmit, Integer.MAX_VALUE);
        }
        sockets.flush();
    }

    private void transmit(final int handle) {
        sockets.send(transmitting, pool.buffer(handle), pool.offset(handle), pool.length(handle));
        pool.free(handle);
    }

    /** The depth distribution of {@code port}'s data (or header) queue seen by departing packets, so far. */
    synchronized Histogram depths(final int port, final boolean data) {
        final Histogram total = data ? dataDepthTotals[port] : headerDepthTotals[port];
        total.add((data ? dataDepths : headerDepths)[port].getIntervalHistogram());
        return total.copy();
    }

    long refused(final int port, final Refused reason) {
        return refused[port][reason.ordinal()];
    }

    long flooded(final int port) {
        return flooded[port];
    }

    /** Frames waiting to be sent on a port: on shutdown, whatever is left is counted. */
    HandleRing txRing(final int port) {
        return txRings[port];
    }
}
