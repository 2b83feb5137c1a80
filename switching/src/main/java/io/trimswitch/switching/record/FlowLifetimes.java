package io.trimswitch.switching.record;

/** For transports whose flows finish (NDP): each flow's size, start, completion and retransmissions. */
public interface FlowLifetimes {
    int size(int flow);

    long startPicos(int flow);

    /** When the receiver held every packet of the flow, or -1 if it never did. */
    long completionPicos(int flow);

    long retransmissions(int flow);

    int completedFlows();
}
