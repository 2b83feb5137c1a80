package io.trimswitch.simulator;

/**
 * Links of a network that fail during a run: when each goes down, which network ports are its ends, and how the
 * network routes around it once it has learned of the failure.
 */
public interface LinkFailures {
    /** A network whose links never fail. */
    LinkFailures NONE = new LinkFailures() {
        @Override
        public int count() {
            return 0;
        }

        @Override
        public long downAtPicos(final int failure) {
            throw new IndexOutOfBoundsException(failure);
        }

        @Override
        public int[] ends(final int failure) {
            throw new IndexOutOfBoundsException(failure);
        }

        @Override
        public long detectionPicos() {
            return 0;
        }

        @Override
        public void routeAround(final int failure) {
            throw new IndexOutOfBoundsException(failure);
        }

        @Override
        public void reset() {
        }
    };

    int count();

    /** When link {@code failure} goes down during the run; negative: it is down from the start, which routing already knows. */
    long downAtPicos(int failure);

    /** The network ports at both ends of link {@code failure}. */
    int[] ends(int failure);

    /** How long the network takes to learn of a failure. */
    long detectionPicos();

    /** The switches and the senders leave link {@code failure} out of every path from now on. */
    void routeAround(int failure);

    /** Every link up again, routing as at the start: before the hosts reset, whose paths it gives. */
    void reset();
}
