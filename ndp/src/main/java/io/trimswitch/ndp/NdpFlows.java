package io.trimswitch.ndp;

/** The flows a host's state machines serve: how many, and each one's length and initial window, in packets. */
public interface NdpFlows {
    int flows();

    /** The flow's length in packets; 0 while a receiver has not yet learnt it. */
    int size(int flow);

    /** Packets the sender sends at line rate before it waits for pulls. */
    int window(int flow);
}
