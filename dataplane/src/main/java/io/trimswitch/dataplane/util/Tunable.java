package io.trimswitch.dataplane.util;

/**
 * A setting a running switch may change: an immutable value that the control thread alone replaces and the dataplane's
 * threads read where they use it. A read is a plain load on x86 (volatile reads need no fence there), so a hot path
 * pays nothing for a setting that never changes, as in virtual time.
 */
public final class Tunable<T> {
    private volatile T value;

    public Tunable(final T value) {
        this.value = java.util.Objects.requireNonNull(value, "a tunable setting needs a value");
    }

    public T get() {
        return value;
    }

    /** From the one thread that changes settings (the control socket's). */
    public void set(final T value) {
        this.value = java.util.Objects.requireNonNull(value, "a tunable setting needs a value");
    }
}
