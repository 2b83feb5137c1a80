package io.trimswitch.network;

import io.trimswitch.simulator.PathChoice;

/**
 * NDP's spraying over a fat tree, as htsim's senders do it: each flow (and, for its ACKs, NACKs and PULLs, its
 * receiver) draws a seeded random set of the usable paths to the other end, all of them or {@code limit} (htsim's
 * {@code -paths}), then walks a new random permutation of that set each round, one packet per path; a round never
 * starts on the path that ended the last.
 */
final class FatTreeSpraying implements PathChoice {
    private final long seed;
    private final int[][] chosen;
    private final int[][] order;
    private final int[] position;
    private final long[] random;

    FatTreeSpraying(final FatTree tree, final int[] sender, final int[] receiver, final int limit, final long seed) {
        this.seed = seed;
        final int directions = 2 * sender.length;
        this.chosen = new int[directions][];
        for (int direction = 0; direction < directions; direction++) {
            final int flow = direction / 2;
            final int from = direction % 2 == 0 ? sender[flow] : receiver[flow];
            final int to = direction % 2 == 0 ? receiver[flow] : sender[flow];
            chosen[direction] = choose(tree, from, to, limit, seed * 0x9E37_79B9_7F4A_7C15L + direction);
        }
        this.order = new int[directions][];
        this.position = new int[directions];
        this.random = new long[directions];
        reset();
    }

    /** The usable paths from {@code from} to {@code to}, or a seeded random {@code limit} of them (0: all). */
    private static int[] choose(final FatTree tree, final int from, final int to, final int limit, final long salt) {
        final int paths = tree.paths(from, to);
        int usable = 0;
        final int[] all = new int[paths];
        for (int path = 0; path < paths; path++) {
            if (tree.usable(from, to, path)) {
                all[usable++] = path;
            }
        }
        if (limit == 0 || limit >= usable) {
            return java.util.Arrays.copyOf(all, usable);
        }
        long state = salt;
        for (int i = 0; i < limit; i++) {
            state += 0x9E37_79B9_7F4A_7C15L;
            final int j = i + (int) Long.remainderUnsigned(mix(state), usable - i);
            final int swap = all[i];
            all[i] = all[j];
            all[j] = swap;
        }
        return java.util.Arrays.copyOf(all, limit);
    }

    @Override
    public int next(final int flow, final boolean towardsReceiver) {
        final int direction = towardsReceiver ? 2 * flow : 2 * flow + 1;
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
    private static long mix(final long value) {
        long z = value;
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }

    @Override
    public void reset() {
        for (int direction = 0; direction < order.length; direction++) {
            random[direction] = seed * 0x2545_F491_4F6C_DD1DL + direction;
            order[direction] = chosen[direction].clone();
            position[direction] = -1;
        }
    }
}
