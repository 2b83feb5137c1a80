package io.trimswitch.simulator;

/**
 * Every kind of event the virtual-time runtime schedules, the switch's and its hosts' together, so that no two
 * share a number. An event carries one of these and an int argument (a port, a pipeline, a link or a flow). A network
 * of switches numbers its ports, recirculation ports and switches across all of them.
 */
public final class EventType {
    /** A port's transmission ends (argument: the egress port). */
    public static final int EGRESS_DONE = 1;
    /** A recirculation port's transmission ends (argument: the pipeline). */
    public static final int RECIRCULATION_DONE = 2;
    /** A recirculated packet is back at its pipeline's ingress (argument: the pipeline). */
    public static final int RECIRCULATION_RETURN = 3;
    /** A NOTIFY reaches the pipelines. */
    public static final int NOTIFY = 4;
    /** The timeline probe samples the switch. */
    public static final int SAMPLE = 5;
    /** The frame at the head of a host's link reaches the switch (argument: the link). */
    public static final int LINK_TO_SWITCH = 6;
    /** A receiving host's pull pacer may send its next PULL (argument: the link). */
    public static final int PULL_TICK = 7;
    /** An NDP sender's retransmission timer expires (argument: the flow). */
    public static final int RETRANSMIT_TIMEOUT = 8;
    /** An NDP flow starts (argument: the flow). */
    public static final int FLOW_START = 9;
    /** A network's link fails (argument: the failure's number). */
    public static final int LINK_DOWN = 10;
    /** The network has detected a failed link and routes around it (argument: the failure's number). */
    public static final int ROUTES_UPDATED = 11;
    /** A host's link has sent its frame and may send the next (argument: the link). */
    public static final int HOST_LINK_FREE = 12;

    private EventType() {
    }
}
