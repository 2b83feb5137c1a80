package io.trimswitch.pipelines;

/** Optional observer of congestion notifications, for state timelines. */
public interface StateProbe {
    StateProbe NONE = (pipeline, port, now, pessimisticUntil, halftimisticUntil) -> { };

    /** Pipeline {@code pipeline} set port {@code port} pessimistic until t0 and halftimistic until t1. */
    void onNotify(int pipeline, int port, long now, long pessimisticUntil, long halftimisticUntil);
}
