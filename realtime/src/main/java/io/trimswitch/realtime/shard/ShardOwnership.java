package io.trimswitch.realtime.shard;

import io.trimswitch.config.Settings;

/**
 * Which shard owns what, computed here alone and read by every ring, port list and hand-off: each pipeline's ingress,
 * each port's egress (its queues and its link), each recirculation port with its DoD queue, and so each buffer's
 * return ring. Ingress is shared out pipeline by pipeline ({@code p mod shards}) in both switches.
 *
 * <p>A switch that keeps virtual time's order (a scenario) puts the traffic manager, every egress port and every
 * recirculation port on one shard, the last: a packet reaches the traffic manager the instant it is metered and a
 * deflection reaches its DoD queue the instant its data queue is full, so spreading those over shards would make
 * threads wait on each other at every instant, while a pipeline needs from the traffic manager only its NOTIFYs,
 * which come a recirculation latency late and so let pipelines run ahead (docs/design.md, "Many shards, one order").
 * A live switch keeps each pipeline's ports, egress included, on that pipeline's shard.
 */
public final class ShardOwnership {
    private final int shards;
    private final boolean ordered;
    private final int portCount;
    private final int portsPerPipeline;
    /** Ports a recirculation port takes deflections of (a pipeline's, or tofino2's eight). */
    private final int portsPerRecirculation;

    /**
     * @param ordered whether the shards keep virtual time's order (the traffic manager on one shard), or forward as
     *                they go (each pipeline's egress on its own shard)
     */
    public ShardOwnership(final Settings settings, final int shards, final boolean ordered) {
        if (shards < 1 || shards > settings.fabric().pipelines()) {
            throw new IllegalArgumentException("shards must be 1 to the pipelines (" + settings.fabric().pipelines() + "), got " + shards);
        }
        this.shards = shards;
        this.ordered = ordered && shards > 1;
        this.portCount = settings.portCount();
        this.portsPerPipeline = settings.fabric().portsPerPipeline();
        this.portsPerRecirculation = settings.mechanism().portsPerRecirculationPort(portsPerPipeline);
    }

    public int shards() {
        return shards;
    }

    /** Whether the shards keep virtual time's order: several of them, and the traffic manager on one. */
    public boolean ordered() {
        return ordered;
    }

    /** The shard that runs the traffic manager, when one does ({@link #ordered()}); else -1. */
    public int trafficManagerShard() {
        return ordered ? shards - 1 : -1;
    }

    /** The pipeline whose ports include {@code port} (a port of a fabric's second copy of ports counts as its own). */
    public int pipelineOf(final int port) {
        return port % portCount / portsPerPipeline;
    }

    /** The shard that meters what arrives on pipeline {@code pipeline}'s ports. */
    public int ingressShard(final int pipeline) {
        return pipeline % shards;
    }

    /** The shard that meters what arrives on port {@code port}. */
    public int ingressShardOfPort(final int port) {
        return ingressShard(pipelineOf(port));
    }

    /**
     * The shard that reads receive queue {@code queue} of port {@code port}: the queues are dealt round the shards from
     * the port's own, queue i to shard (owner + i) mod shards, as OVS deals a port's receive queues round its polling
     * threads; queue 0 is always the owner's, and a port of more queues than shards gives some shards several.
     */
    public int receiveShard(final int port, final int queue) {
        if (queue < 0) {
            throw new IllegalArgumentException("receive queue " + queue);
        }
        return (ingressShardOfPort(port) + queue) % shards;
    }

    /** The shard that queues for, and sends out of, port {@code port}. */
    public int egressShard(final int port) {
        return ordered ? trafficManagerShard() : ingressShardOfPort(port);
    }

    /** The shard that runs pipeline {@code pipeline}'s group of egress ports. */
    public int egressShardOfPipeline(final int pipeline) {
        return ordered ? trafficManagerShard() : ingressShard(pipeline);
    }

    /** The shard that runs recirculation port {@code recirculation} and drains its DoD queue. */
    public int recirculationShard(final int recirculation) {
        return ordered ? trafficManagerShard() : ingressShardOfPort(recirculation * portsPerRecirculation);
    }

    /** The shard whose thread is the only one to queue into port {@code port}: others hand their packets to it. */
    public boolean queuesDirectly(final int shard, final int port) {
        return egressShard(port) == shard;
    }
}
