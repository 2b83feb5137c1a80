package io.trimswitch.ndp.live;

import java.util.SplittableRandom;

/**
 * NDP's spraying over K paths, a path being one of the sender's K source ports (a fabric's ECMP hash sends each
 * elsewhere): each flow walks a random permutation of the paths, one packet per path, and draws a new permutation
 * when it has used them all, never starting the new round on the path that ended the last.
 */
final class SourcePortSpray {
    private final int[][] order;
    private final int[] position;
    private final SplittableRandom random;

    SourcePortSpray(final int flows, final int paths, final long seed) {
        this.order = new int[flows][paths];
        this.position = new int[flows];
        this.random = new SplittableRandom(seed);
        for (int flow = 0; flow < flows; flow++) {
            for (int path = 0; path < paths; path++) {
                order[flow][path] = path;
            }
            shuffle(order[flow], -1);
        }
    }

    int next(final int flow) {
        final int[] paths = order[flow];
        if (position[flow] == paths.length) {
            shuffle(paths, paths[paths.length - 1]);
            position[flow] = 0;
        }
        return paths[position[flow]++];
    }

    private void shuffle(final int[] paths, final int last) {
        for (int i = paths.length - 1; i > 0; i--) {
            final int j = random.nextInt(i + 1);
            final int swap = paths[i];
            paths[i] = paths[j];
            paths[j] = swap;
        }
        if (paths.length > 1 && paths[0] == last) {
            final int j = 1 + random.nextInt(paths.length - 1);
            paths[0] = paths[j];
            paths[j] = last;
        }
    }
}
