package io.trimswitch.uet;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * REPS, recycled entropy packet spraying: a small ring of the entropies whose packets came back acknowledged without
 * an ECN mark. A sender reuses the oldest fresh one, and explores a random entropy when none is fresh. After a
 * timeout (a failed link, probably) the ring freezes: the sender cycles through the entropies it holds, good ones
 * only, until the freeze ends; then it forgets them and explores a few packets at random.
 */
final class Reps implements EntropyChoice {
    static final int BUFFER = 8;
    /** How long a freeze lasts, ps (10 ms). */
    static final long FREEZE = 10_000_000_000L;
    static final int EXPLORE_AFTER_FREEZE = 16;

    private final int entropies;
    private final long seed;
    private final int[] value = new int[BUFFER];
    private final boolean[] fresh = new boolean[BUFFER];
    private SplittableRandom random;
    private int head;
    private int count;
    private int freshCount;
    private int frozenHead;
    private boolean frozen;
    private long thawAt;
    private int explore;

    Reps(final int entropies, final long seed) {
        this.entropies = entropies;
        this.seed = seed;
        reset();
    }

    @Override
    public int next(final long now) {
        if (explore > 0) {
            explore--;
            return random.nextInt(entropies);
        }
        if (frozen) {
            if (count == 0) {
                return random.nextInt(entropies);
            }
            final int entropy = value[frozenHead];
            if (fresh[frozenHead]) {
                fresh[frozenHead] = false;
                freshCount--;
            }
            frozenHead = (frozenHead + 1) % count;
            return entropy;
        }
        if (count == 0 || freshCount == 0) {
            return random.nextInt(entropies);
        }
        final int oldest = Math.floorMod(head - freshCount, BUFFER);
        fresh[oldest] = false;
        freshCount--;
        return value[oldest];
    }

    @Override
    public void feedback(final int entropy, final int kind, final long now) {
        if (kind == TIMEOUT && !frozen && explore == 0) {
            frozen = true;
            thawAt = now + FREEZE;
        }
        if (frozen && now > thawAt) {
            frozen = false;
            clear();
            explore = EXPLORE_AFTER_FREEZE;
        }
        if (kind == GOOD) {
            if (!fresh[head]) {
                freshCount++;
            }
            value[head] = entropy;
            fresh[head] = true;
            head = (head + 1) % BUFFER;
            count = Math.min(count + 1, BUFFER);
        }
    }

    private void clear() {
        Arrays.fill(value, 0);
        Arrays.fill(fresh, false);
        head = 0;
        count = 0;
        freshCount = 0;
        frozenHead = 0;
    }

    @Override
    public void reset() {
        clear();
        random = new SplittableRandom(seed);
        frozen = false;
        thawAt = 0;
        explore = 0;
    }

    boolean frozen() {
        return frozen;
    }
}
