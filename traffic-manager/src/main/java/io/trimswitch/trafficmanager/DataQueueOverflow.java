package io.trimswitch.trafficmanager;

/**
 * What the traffic manager does with a trimmable packet that meets a full data queue: the one place
 * where the mechanisms (ideal trimming, mirror-on-drop, deflect-on-drop) differ inside the TM.
 */
public interface DataQueueOverflow {
    void onDataQueueFull(TrafficManager trafficManager, int handle, EgressPort port, long now);

    /** The queue each pipeline's recirculation port drains, or null when this mechanism recirculates nothing. */
    HandleQueue recirculationQueue(int pipeline);

    void reset();
}
