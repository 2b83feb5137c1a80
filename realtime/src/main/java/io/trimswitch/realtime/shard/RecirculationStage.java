package io.trimswitch.realtime.shard;

import io.trimswitch.recirc.RecirculationPort;
import io.trimswitch.switching.CatchUp;

/**
 * A pipeline's recirculation port on a thread: it drains the pipeline's DoD (or mirror) ring at the
 * port's rate, raising the congestion signal as each deflected packet leaves the ring, and after the
 * recirculation latency trims it into its egress port's header ring. The port owns its timing
 * ({@link RecirculationPort#advanceTo}), the same virtual time drives; the stage looks once a turn, however late.
 */
final class RecirculationStage implements CatchUp.Stage {
    private final RecirculationPort port;

    RecirculationStage(final RecirculationPort port) {
        this.port = port;
    }

    /** Does everything due by switch time {@code now}; returns how much. */
    @Override
    public int advanceTo(final long now) {
        return port.advanceTo(now) + port.returnDue(now);
    }

    /** Nothing queued, in service or looping; on this stage's shard's thread only. */
    boolean isEmpty() {
        return port.isEmpty();
    }

    /** Nothing queued for the port: safe to ask from any thread. */
    boolean queueIsEmpty() {
        return port.queue().isEmpty();
    }

}
