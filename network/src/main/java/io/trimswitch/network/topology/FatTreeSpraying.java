package io.trimswitch.network.topology;

import io.trimswitch.simulator.PathChoice;

/**
 * NDP's spraying over a fat tree, as htsim's senders do it: each flow (and, for its ACKs, NACKs and PULLs, its
 * receiver) draws a seeded random set of the usable paths to the other end, all of them or {@code limit} (htsim's
 * {@code -paths}), then walks a new random permutation of that set each round, one packet per path; a round never
 * starts on the path that ended the last.
 */
public final class FatTreeSpraying implements PathChoice {
    private final int[][] chosen;
    private final SprayRounds rounds;

    public FatTreeSpraying(final FatTree tree, final int[] sender, final int[] receiver, final int limit, final long seed) {
        final int directions = 2 * sender.length;
        this.chosen = new int[directions][];
        for (int direction = 0; direction < directions; direction++) {
            final int flow = direction / 2;
            final int from = direction % 2 == 0 ? sender[flow] : receiver[flow];
            final int to = direction % 2 == 0 ? receiver[flow] : sender[flow];
            chosen[direction] = choose(tree, from, to, limit, seed * 0x9E37_79B9_7F4A_7C15L + direction);
        }
        this.rounds = new SprayRounds(directions, seed);
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
            final int j = i + (int) Long.remainderUnsigned(SprayRounds.mix(state), usable - i);
            final int swap = all[i];
            all[i] = all[j];
            all[j] = swap;
        }
        return java.util.Arrays.copyOf(all, limit);
    }

    @Override
    public int next(final int flow, final boolean towardsReceiver) {
        return rounds.next(towardsReceiver ? 2 * flow : 2 * flow + 1);
    }

    @Override
    public void reset() {
        for (int direction = 0; direction < chosen.length; direction++) {
            rounds.reset(direction, chosen[direction].clone());
        }
    }
}
