package io.trimswitch.uet;

/**
 * Where the state machines put what they send, and how a sender asks for its host's link: the simulator's host links,
 * or a live host's socket. Data goes out of the flow's sender, ACK, NACK and PULL out of its receiver.
 */
public interface UetFrames {
    /**
     * Data packet {@code psn} of {@code flow} on {@code entropy}; {@code ackRequest} asks the receiver to acknowledge at once;
     * {@code pullTarget} is RCCC's pull target (0 without RCCC).
     */
    void data(int flow, int psn, int entropy, boolean ackRequest, long pullTarget, long now);

    /**
     * Acknowledges {@code psn} (sent on {@code entropy}, marked {@code ecnEcho}), every packet below {@code cumulative},
     * and packet {@code sackBase} + i for each bit i of {@code sackBits}; {@code received} counts the flow's packets the
     * receiver holds.
     */
    void ack(int flow, int psn, int cumulative, int received, int entropy, boolean ecnEcho, int sackBase, long sackBits, long now);

    /** {@code psn} arrived trimmed; {@code lastHop}: trimmed by the switch in front of the receiver. */
    void nack(int flow, int psn, int cumulative, int received, int entropy, boolean lastHop, boolean ecnEcho, long now);

    /** RCCC: the receiver of {@code flow} grants credit up to its running count {@code pullNumber}, in quanta. */
    void pull(int flow, long pullNumber, long now);

    /** The sender of {@code flow} may send: the link calls {@link UetSender#sendNext} when it is its turn. */
    void ready(int flow, long now);
}
