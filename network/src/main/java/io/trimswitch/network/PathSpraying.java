package io.trimswitch.network;

import io.trimswitch.simulator.PathChoice;

/**
 * NDP's spraying: each flow's sender (and, for its ACKs, NACKs and PULLs, its receiver) walks a seeded random
 * permutation of the spines that reach the other end, one packet per spine, and draws a new permutation when it has
 * used them all. Every path is used once per round, and a new round never starts on the path that ended the last.
 */
final class PathSpraying implements PathChoice {
    private final LeafSpine network;
    private final long seed;
    /** Per flow and direction (2 f towards the receiver, 2 f + 1 back): the leaf it leaves from and the leaf it goes to. */
    private final int[] fromLeaf;
    private final int[] toLeaf;
    /** Per flow and direction: the usable spines, in this round's order. */
    private final int[][] order;
    private final int[] position;
    private final long[] random;

    PathSpraying(final LeafSpine network, final int[] sender, final int[] receiver, final long seed) {
        this.network = network;
        this.seed = seed;
        final int directions = 2 * sender.length;
        this.fromLeaf = new int[directions];
        this.toLeaf = new int[directions];
        for (int flow = 0; flow < sender.length; flow++) {
            fromLeaf[2 * flow] = network.leafOf(sender[flow]);
            toLeaf[2 * flow] = network.leafOf(receiver[flow]);
            fromLeaf[2 * flow + 1] = toLeaf[2 * flow];
            toLeaf[2 * flow + 1] = fromLeaf[2 * flow];
        }
        this.order = new int[directions][];
        this.position = new int[directions];
        this.random = new long[directions];
        reset();
    }

    /** The senders have learnt of a failed link: each whose usable spines changed starts a new round over those left. */
    void pathsChanged() {
        for (int direction = 0; direction < order.length; direction++) {
            final int[] usable = network.usableSpines(fromLeaf[direction], toLeaf[direction]);
            if (usable.length != order[direction].length) {
                order[direction] = usable.clone();
                position[direction] = -1;
            }
        }
    }

    @Override
    public int next(final int flow, final boolean towardsReceiver) {
        final int direction = towardsReceiver ? 2 * flow : 2 * flow + 1;
        final int[] paths = order[direction];
        if (paths.length == 0) {
            return 0;
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

    /** A new round: a Fisher-Yates shuffle, then the first path swapped away from {@code last}. */
    private void shuffle(final int direction, final int last) {
        final int[] paths = order[direction];
        for (int i = paths.length - 1; i > 0; i--) {
            final int j = (int) Long.remainderUnsigned(nextRandom(direction), i + 1);
            final int swap = paths[i];
            paths[i] = paths[j];
            paths[j] = swap;
        }
        if (paths.length > 1 && paths[0] == last) {
            final int j = 1 + (int) Long.remainderUnsigned(nextRandom(direction), paths.length - 1);
            paths[0] = paths[j];
            paths[j] = last;
        }
    }

    /** SplitMix64: a seeded stream per flow and direction, so one flow's draws never depend on another's. */
    private long nextRandom(final int direction) {
        long z = random[direction] += 0x9E37_79B9_7F4A_7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }

    @Override
    public void reset() {
        for (int direction = 0; direction < order.length; direction++) {
            random[direction] = seed * 0x2545_F491_4F6C_DD1DL + direction;
            order[direction] = network.usableSpines(fromLeaf[direction], toLeaf[direction]).clone();
            // The first round is shuffled too, on the first packet.
            position[direction] = -1;
        }
    }
}
