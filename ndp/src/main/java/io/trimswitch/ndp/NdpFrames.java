package io.trimswitch.ndp;

/**
 * Where the state machines put what they send: the simulator's host links, or a live host's socket. Data goes out
 * of the flow's sender; ACK, NACK and PULL out of its receiver, back to the sender.
 */
public interface NdpFrames {
    int DATA = 0;
    int ACK = 1;
    int NACK = 2;
    int PULL = 3;

    /** Sends a frame of {@code kind} for {@code flow} at {@code now}; {@code pull} numbers a PULL, 0 otherwise. */
    void transmit(int kind, int flow, int sequence, int pull, long now);
}
