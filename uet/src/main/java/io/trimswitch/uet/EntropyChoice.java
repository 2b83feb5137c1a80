package io.trimswitch.uet;

import java.util.SplittableRandom;

/**
 * A flow's load balancer: the entropy of each packet it sends (the switches map an entropy to a path), and what it
 * learns of the entropies it used. One per flow; time is passed in.
 */
public interface EntropyChoice {
    /** The entropy's packet was acknowledged unmarked. */
    int GOOD = 0;
    /** Acknowledged, but a queue on the way marked it with ECN. */
    int ECN = 1;
    /** Trimmed before the last hop: its path is congested. */
    int NACK = 2;
    /** A packet timed out; which entropy it took is not known. */
    int TIMEOUT = 3;

    int next(long now);

    void feedback(int entropy, int kind, long now);

    /** Forgets what it learnt: a new run starts. */
    void reset();

    /** A new load balancer of {@code kind} over {@code entropies} entropies, its coins seeded by {@code seed}. */
    static EntropyChoice of(final UetSettings.LoadBalancer kind, final int entropies, final long seed) {
        return switch (kind) {
            case REPS -> new Reps(entropies, seed);
            case OBLIVIOUS -> new ObliviousSpray(entropies, seed);
            case BITMAP -> new BitmapSpray(entropies, seed);
            case MIXED -> new MixedSpray(entropies, seed);
            case SINGLE -> new SinglePath(new SplittableRandom(seed).nextInt(entropies));
        };
    }
}
