package io.trimswitch.network.topology;

/**
 * NDP's rounds over each flow direction's paths (2 f towards flow f's receiver, 2 f + 1 back): one packet per path,
 * each round a new seeded random permutation, and a round never starts on the path that ended the last. Each direction
 * draws from a SplitMix64 stream of its own, so one flow's draws never depend on another's.
 */
final class SprayRounds {
    private final long seed;
    /** Per direction: its paths, in this round's order. */
    private final int[][] order;
    private final int[] position;
    private final long[] random;

    SprayRounds(final int directions, final long seed) {
        this.seed = seed;
        this.order = new int[directions][];
        this.position = new int[directions];
        this.random = new long[directions];
    }

    int directions() {
        return order.length;
    }

    /** The path of {@code direction}'s next packet. */
    int next(final int direction) {
        final int[] paths = order[direction];
        if (paths.length <= 1) {
            return paths.length == 0 ? 0 : paths[0];
        }
        if (position[direction] < 0) {
            shuffle(direction, -1);
            position[direction] = 0;
        } else if (position[direction] == paths.length) {
            shuffle(direction, paths[paths.length - 1]);
            position[direction] = 0;
        }
        return paths[position[direction]++];
    }

    /** {@code direction}'s paths from now on, a new round over them started with its next packet. */
    void restart(final int direction, final int[] paths) {
        order[direction] = paths;
        position[direction] = -1;
    }

    /** {@code direction}'s paths and random stream as at the start of a run; the first round is shuffled too. */
    void reset(final int direction, final int[] paths) {
        random[direction] = seed * 0x2545_F491_4F6C_DD1DL + direction;
        restart(direction, paths);
    }

    int paths(final int direction) {
        return order[direction].length;
    }

    /** A new round: a Fisher-Yates shuffle, then the first path swapped away from {@code last}. */
    private void shuffle(final int direction, final int last) {
        final int[] paths = order[direction];
        for (int i = paths.length - 1; i > 0; i--) {
            final int j = (int) Long.remainderUnsigned(nextRandom(direction), i + 1);
            final int swap = paths[i];
            paths[i] = paths[j];
            paths[j] = swap;
        }
        if (paths[0] == last) {
            final int j = 1 + (int) Long.remainderUnsigned(nextRandom(direction), paths.length - 1);
            paths[0] = paths[j];
            paths[j] = last;
        }
    }

    private long nextRandom(final int direction) {
        return mix(random[direction] += 0x9E37_79B9_7F4A_7C15L);
    }

    /** SplitMix64's finaliser. */
    static long mix(final long value) {
        long z = value;
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }
}
