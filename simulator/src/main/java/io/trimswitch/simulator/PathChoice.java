package io.trimswitch.simulator;

/**
 * Which path a host puts a frame on, written into the frame for the switches to follow. Through one switch there is
 * one path; across a fabric, a spraying host picks one per packet.
 */
public interface PathChoice {
    /** Every frame on path 0: a single switch, or a fabric whose switches choose the path themselves. */
    PathChoice NONE = new PathChoice() {
        @Override
        public int next(final int flow, final boolean towardsReceiver) {
            return 0;
        }

        @Override
        public void reset() {
        }
    };

    /** The path of the next frame of {@code flow}: its data towards the receiver, or its ACKs, NACKs and PULLs back. */
    int next(int flow, boolean towardsReceiver);

    /** Forgets every choice made: a new run starts. */
    void reset();
}
