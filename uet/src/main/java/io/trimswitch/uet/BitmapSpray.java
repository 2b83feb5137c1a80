package io.trimswitch.uet;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Bitmap spraying: oblivious spraying that skips the entropies with a penalty. An ECN-marked ACK adds 1 to its
 * entropy's penalty, a NACK from before the last hop 4, a timeout the most (15, on entropy 0: which entropy timed out is
 * not known, as in uet-htsim). A send that meets a penalised entropy takes one off it and moves on to the next
 * unpenalised one, giving up after a full round.
 */
final class BitmapSpray implements EntropyChoice {
    static final int MAX_PENALTY = 15;
    static final int ECN_PENALTY = 1;
    static final int NACK_PENALTY = 4;

    private final int mask;
    private final long seed;
    private final byte[] penalty;
    private SplittableRandom random;
    private int index;
    private int xor;

    BitmapSpray(final int entropies, final long seed) {
        this.mask = entropies - 1;
        this.seed = seed;
        this.penalty = new byte[entropies];
        reset();
    }

    @Override
    public int next(final long now) {
        int entropy = (index ^ xor) & mask;
        boolean first = true;
        int tried = 0;
        while (penalty[entropy] > 0) {
            if (first) {
                penalty[entropy]--;
                first = false;
            }
            if (++tried > mask + 1) {
                break;
            }
            advance();
            entropy = (index ^ xor) & mask;
        }
        advance();
        return entropy;
    }

    private void advance() {
        if (++index > mask) {
            index = 0;
            xor = random.nextInt(mask + 1);
        }
    }

    @Override
    public void feedback(final int entropy, final int kind, final long now) {
        final int added = switch (kind) {
            case ECN -> ECN_PENALTY;
            case NACK -> NACK_PENALTY;
            case TIMEOUT -> MAX_PENALTY;
            default -> 0;
        };
        final int at = entropy & mask;
        penalty[at] = (byte) Math.min(MAX_PENALTY, penalty[at] + added);
    }

    @Override
    public void reset() {
        Arrays.fill(penalty, (byte) 0);
        random = new SplittableRandom(seed);
        index = 0;
        xor = random.nextInt(mask + 1);
    }

    int penalty(final int entropy) {
        return penalty[entropy & mask];
    }
}
