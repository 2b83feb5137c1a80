package io.trimswitch.simulator;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.switching.record.FlowLifetimes;
import io.trimswitch.switching.source.TrafficSource;

/**
 * End hosts that react to every delivery (NDP's, or Ultra Ethernet's): the engine hands them their events and the
 * frames that reach them, and they inject what they send into the switch their links are plugged into.
 */
public interface EndHosts extends TrafficSource, FlowLifetimes {
    /** What the hosts need from the switch they are plugged into. */
    interface Switch {
        void schedule(long time, int type, int arg);

        /** A free packet buffer, or {@link PacketPool#NO_PACKET}. */
        int allocate();

        /** The frame in {@code handle} has fully arrived at its ingress port. */
        void inject(int handle, boolean control, long now);

        /** A frame of {@code flow} reached the switch but no buffer was free for it. */
        void noBuffer(int flow, boolean control);

        PacketPool pool();
    }

    /** Schedules every flow's start. */
    void start(Switch attached);

    /** One of the hosts' own events: a frame reaching the switch, a timer, a flow's start. */
    void onEvent(int type, int arg, long now);

    /** How long a frame takes from the switch to its host (and back). */
    long propagationPicos();

    /** A frame that left the switch a propagation delay ago reaches its host, which consumes (and frees) it. */
    void arriveAtHost(int handle, long now);
}
