package io.trimswitch.bench;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.evaluation.scenario.Scenarios;

import java.util.List;
import java.util.Locale;

/**
 * The default scenario's three runs ({@code tofino}, {@code dod} and {@code ideal}, a thread each, as {@code scenario}
 * runs them) repeated in one JVM until its code is compiled, then timed: what the default scenario's simulation costs
 * once nothing is left to load, interpret or compile. {@code bench/process/process_bench.sh} starts it with the
 * launcher's JVM options and sets its time beside the whole processes'.
 * {@code java -cp bench/target/benchmarks.jar io.trimswitch.bench.CompiledScenario [REPEATS]} prints the fastest
 * repeat of the second half, in milliseconds.
 */
public final class CompiledScenario {
    private static final List<Mechanism> DEFAULT_RUNS = List.of(Mechanism.TOFINO, Mechanism.DOD, Mechanism.IDEAL);

    private CompiledScenario() {
    }

    public static void main(final String[] args) {
        final int repeats = args.length > 0 ? repeats(args[0]) : 10;
        long fastest = Long.MAX_VALUE;
        long packets = 0;
        for (int repeat = 0; repeat < repeats; repeat++) {
            final long start = System.nanoTime();
            final Scenarios.Result result = Scenarios.run(Settings.DEFAULTS, DEFAULT_RUNS, true, null, Integer.MAX_VALUE);
            final long elapsed = System.nanoTime() - start;
            // The first half warms the compiler up.
            if (repeat >= repeats / 2) {
                fastest = Math.min(fastest, elapsed);
            }
            packets = result.runs().get(0).sent();
        }
        System.out.printf(Locale.ROOT, "%.1f ms (tofino sent %d packets)%n", fastest / 1e6, packets);
    }

    private static int repeats(final String text) {
        try {
            final int repeats = Integer.parseInt(text);
            if (repeats >= 2) {
                return repeats;
            }
        } catch (final NumberFormatException e) {
            // Said below, as for a number too small.
        }
        System.err.println("CompiledScenario: REPEATS must be a whole number of at least 2, got '" + text + "'");
        System.exit(2);
        return 0;
    }
}
