package io.trimswitch.realtime.shard;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.switching.CatchUp;
import io.trimswitch.trafficmanager.EgressPort;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What one shard owns and drives, whichever order it keeps: its pipelines' ingress stages, its egress stages and
 * recirculation ports with the catch-up between them, its ports, and the rings other shards hand it packets on. The
 * shard's thread is the one writer of all of it; another thread only looks at its rings ({@link #hasQueuedInput}).
 */
final class ShardParts implements ShardWakeUp.QueuedInput {
    private final PacketPool pool;
    private final AssembledSwitch assembly;
    private final IngressStage[] ingressByPipeline;
    private final EgressStage[] egressByPipeline;
    private final IngressStage[] ingress;
    private final List<EgressStage> egress = new ArrayList<>();
    private final List<RecirculationStage> recirculation = new ArrayList<>();
    /** This thread's recirculation and egress, brought up to each arrival in the one order. */
    private final CatchUp catchUp;
    private final InboundRings inbound;
    /** This shard's ports; its thread alone changes them. */
    private int[] ownPorts;
    private boolean[] owned;
    /** Its ports' egress; replaced whole as a port is added, since other shards read it ({@link #hasQueuedInput()}). */
    private volatile EgressPort[] ownEgress;
    /** Everything this shard does up to this switch time is done: a run may end once every shard has reached its end. */
    private final PublishedTime doneThrough = new PublishedTime(Long.MIN_VALUE);
    private long maxLagPicos;

    /** Shard {@code id}'s parts of {@code dataplane}, whose stages are built; other shards hand it packets on {@code inbound}. */
    ShardParts(final int id, final ShardedDataplane dataplane, final InboundRings inbound) {
        this.pool = dataplane.pool;
        this.assembly = dataplane.assembly;
        this.inbound = inbound;
        final ShardOwnership owners = dataplane.ownership;
        this.ingressByPipeline = new IngressStage[assembly.pipelines()];
        this.egressByPipeline = new EgressStage[assembly.pipelines()];
        final List<IngressStage> own = new ArrayList<>();
        for (int pipeline = 0; pipeline < assembly.pipelines(); pipeline++) {
            if (owners.ingressShard(pipeline) == id) {
                ingressByPipeline[pipeline] = dataplane.ingress.get(pipeline);
                own.add(ingressByPipeline[pipeline]);
            }
            if (owners.egressShardOfPipeline(pipeline) == id) {
                egressByPipeline[pipeline] = dataplane.egress.get(pipeline);
                egress.add(egressByPipeline[pipeline]);
            }
        }
        this.ingress = own.toArray(IngressStage[]::new);
        for (int port = 0; port < dataplane.recirculation.length; port++) {
            if (dataplane.recirculation[port] != null && owners.recirculationShard(port) == id) {
                recirculation.add(dataplane.recirculation[port]);
            }
        }
        // Recirculation before egress: a header back from its loop is in its queue when egress chooses.
        this.catchUp = new CatchUp(recirculation, egress);
        this.ownPorts = Arrays.stream(dataplane.attached).filter(port -> owners.ingressShardOfPort(port) == id).toArray();
        this.owned = new boolean[assembly.ports()];
        for (final int port : ownPorts) {
            owned[port] = true;
        }
        this.ownEgress = Arrays.stream(dataplane.attached).filter(port -> owners.egressShard(port) == id)
            .mapToObj(assembly::port).toArray(EgressPort[]::new);
    }

    PacketPool pool() {
        return pool;
    }

    CatchUp catchUp() {
        return catchUp;
    }

    InboundRings inbound() {
        return inbound;
    }

    int[] ownPorts() {
        return ownPorts;
    }

    boolean owns(final int port) {
        return port < owned.length && owned[port];
    }

    /** What leaves this shard's egress ports goes to {@code departures}: its ports' kinds. */
    void departTo(final EgressPort.Departures departures) {
        for (final EgressStage stage : egress) {
            stage.departTo(departures);
        }
    }

    /**
     * The ingress stage that meters what arrives on port {@code port}: a frame of another shard's port, read here on one
     * of the port's receive queues, is metered by this shard's first pipeline.
     */
    IngressStage ingressOf(final int port) {
        final IngressStage own = ingressByPipeline[assembly.pipelineOf(port)];
        return own != null ? own : ingress[0];
    }

    /** NOTIFYs that came for its pipelines, into their own FIFOs; returns how many. */
    int drainInboxes() {
        int work = 0;
        for (final IngressStage stage : ingress) {
            work += stage.drainInbox();
        }
        return work;
    }

    /** A packet due at {@code due} was taken up at {@code now}: how late, at worst. */
    void lag(final long now, final long due) {
        maxLagPicos = Math.max(maxLagPicos, now - due);
    }

    long maxLagPicos() {
        return maxLagPicos;
    }

    PublishedTime doneThrough() {
        return doneThrough;
    }

    /** On the shard's thread: takes port {@code port}, of one of its pipelines, which the switch did not start with. */
    void addPort(final int port) {
        ownPorts = Arrays.copyOf(ownPorts, ownPorts.length + 1);
        ownPorts[ownPorts.length - 1] = port;
        owned[port] = true;
        final EgressPort[] egressPorts = Arrays.copyOf(ownEgress, ownEgress.length + 1);
        egressPorts[egressPorts.length - 1] = assembly.port(port);
        ownEgress = egressPorts;
        egressByPipeline[assembly.pipelineOf(port)].add(assembly.port(port));
    }

    /** Before the thread starts: frames of {@code port}, another shard's, arrive here too; its egress stays with its owner. */
    void receiveFor(final int port) {
        ownPorts = Arrays.copyOf(ownPorts, ownPorts.length + 1);
        ownPorts[ownPorts.length - 1] = port;
        owned[port] = true;
    }

    /**
     * Packets the thread can move on now: handed over by another thread, queued at a port that is not sending, or
     * looping through a recirculation port (they move on at the loop's pace, so the thread keeps polling). Packets
     * queued behind one in service wait for it to finish: that instant is a timed event.
     */
    boolean hasWorkNow() {
        if (inbound.hasAny()) {
            return true;
        }
        for (final EgressPort port : ownEgress) {
            if (port.isIdle() && (!port.dataQueue().isEmpty() || !port.headerQueue().isEmpty())) {
                return true;
            }
        }
        for (final RecirculationStage loop : recirculation) {
            if (!loop.isEmpty() || !loop.queueIsEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** Packets in this shard's rings, which any thread may fill: its hand-off rings, its egress queues and its DoD queues. */
    @Override
    public boolean hasQueuedInput() {
        if (inbound.hasAny()) {
            return true;
        }
        for (final EgressPort port : ownEgress) {
            if (!port.dataQueue().isEmpty() || !port.headerQueue().isEmpty()) {
                return true;
            }
        }
        for (final RecirculationStage loop : recirculation) {
            if (!loop.queueIsEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** The first instant a packet finishes on one of its egress ports; MAX_VALUE: none is sending. */
    long nextDeparturePicos() {
        long next = Long.MAX_VALUE;
        for (final EgressPort port : ownEgress) {
            if (!port.isIdle()) {
                next = Math.min(next, port.busyUntil());
            }
        }
        return next;
    }

    void reset() {
        maxLagPicos = 0;
        doneThrough.set(Long.MIN_VALUE);
        inbound.reset();
    }
}
