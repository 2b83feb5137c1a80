package io.trimswitch.uet;

/**
 * Mixed spraying, uet-htsim's default: every entropy acknowledged unmarked is queued and used once more, oldest first
 * (recycling as REPS does, with no ring to bound it and no freeze); with none queued, bitmap spraying picks, and hears
 * every feedback too.
 */
final class MixedSpray implements EntropyChoice {
    private final BitmapSpray bitmap;
    /** The recycled entropies, a ring that doubles when full: it holds at most the packets a flow has in flight. */
    private int[] queued = new int[64];
    private int head;
    private int size;

    MixedSpray(final int entropies, final long seed) {
        this.bitmap = new BitmapSpray(entropies, seed);
    }

    @Override
    public int next(final long now) {
        if (size == 0) {
            return bitmap.next(now);
        }
        final int entropy = queued[head];
        head = (head + 1) & (queued.length - 1);
        size--;
        return entropy;
    }

    @Override
    public void feedback(final int entropy, final int kind, final long now) {
        bitmap.feedback(entropy, kind, now);
        if (kind != GOOD) {
            return;
        }
        if (size == queued.length) {
            final int[] larger = new int[queued.length * 2];
            for (int i = 0; i < size; i++) {
                larger[i] = queued[(head + i) & (queued.length - 1)];
            }
            queued = larger;
            head = 0;
        }
        queued[(head + size) & (queued.length - 1)] = entropy;
        size++;
    }

    @Override
    public void reset() {
        bitmap.reset();
        head = 0;
        size = 0;
    }

    int queued() {
        return size;
    }
}
