package io.trimswitch.network.topology;

import io.trimswitch.simulator.Fabric;

/**
 * A packet's path from its entropy, as switches that hash a flow's entropy at each hop choose it: a seeded hash of the
 * flow, the direction and the entropy picks one of the usable paths between the two hosts.
 */
public record EntropyHashPaths(int[][] usable, long seed) implements Fabric.EntropyPaths {
    public EntropyHashPaths(final FatTree tree, final int[] sender, final int[] receiver, final long seed) {
        this(usablePaths(tree, sender, receiver), seed);
    }

    private static int[][] usablePaths(final FatTree tree, final int[] sender, final int[] receiver) {
        final int[][] usable = new int[2 * sender.length][];
        for (int direction = 0; direction < usable.length; direction++) {
            final int flow = direction / 2;
            final int from = direction % 2 == 0 ? sender[flow] : receiver[flow];
            final int to = direction % 2 == 0 ? receiver[flow] : sender[flow];
            final int[] all = new int[tree.paths(from, to)];
            int count = 0;
            for (int path = 0; path < all.length; path++) {
                if (tree.usable(from, to, path)) {
                    all[count++] = path;
                }
            }
            usable[direction] = java.util.Arrays.copyOf(all, Math.max(1, count));
        }
        return usable;
    }

    @Override
    public int path(final int flow, final boolean towardsReceiver, final int entropy) {
        final int direction = towardsReceiver ? 2 * flow : 2 * flow + 1;
        final int[] paths = usable[direction];
        if (paths.length == 1) {
            return paths[0];
        }
        long z = seed * 0x9E37_79B9_7F4A_7C15L + ((long) direction << 20) + entropy;
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        z ^= z >>> 31;
        return paths[(int) Long.remainderUnsigned(z, paths.length)];
    }
}
