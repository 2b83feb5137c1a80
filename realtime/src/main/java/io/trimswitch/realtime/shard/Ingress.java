package io.trimswitch.realtime.shard;

import io.trimswitch.dataplane.ports.Burst;

/**
 * A shard's way in, the stage after DPDK's rx burst: takes every descriptor of a burst its port kinds filled, each
 * frame waiting for its arrival time, metered, or counted as dropped with its buffer given back. The switch that builds
 * the shard chooses it (a live switch's links and captures, a scenario's generated traffic); on the shard's thread.
 */
public interface Ingress {
    /** A shard whose kinds never fill a burst. */
    Ingress NONE = burst -> {
        throw new IllegalStateException("a port kind received " + burst.size() + " frames on a shard with no way in");
    };

    void admit(Burst burst);
}
