package io.trimswitch.uet;

import java.util.SplittableRandom;

/**
 * Oblivious spraying: the entropies in turn, each round in an order given by a new random mask, deaf to feedback.
 */
final class ObliviousSpray implements EntropyChoice {
    private final int mask;
    private final long seed;
    private SplittableRandom random;
    private int index;
    private int xor;

    ObliviousSpray(final int entropies, final long seed) {
        this.mask = entropies - 1;
        this.seed = seed;
        reset();
    }

    @Override
    public int next(final long now) {
        final int entropy = (index ^ xor) & mask;
        if (++index > mask) {
            index = 0;
            xor = random.nextInt(mask + 1);
        }
        return entropy;
    }

    @Override
    public void feedback(final int entropy, final int kind, final long now) {
    }

    @Override
    public void reset() {
        random = new SplittableRandom(seed);
        index = 0;
        xor = random.nextInt(mask + 1);
    }
}
