package io.trimswitch.uet;

/** Every packet of the flow on one entropy: one path, as a flow hashed once by ECMP. */
final class SinglePath implements EntropyChoice {
    private final int entropy;

    SinglePath(final int entropy) {
        this.entropy = entropy;
    }

    @Override
    public int next(final long now) {
        return entropy;
    }

    @Override
    public void feedback(final int used, final int kind, final long now) {
    }

    @Override
    public void reset() {
    }
}
