package io.trimswitch.bench;

import io.trimswitch.network.htsim.HtsimExperiment;
import io.trimswitch.network.htsim.HtsimMatrix;
import io.trimswitch.network.run.NetworkRun;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * How long htsim's default fat tree for N hosts takes to build, with a permutation of 2 MB flows on it, ready to run
 * but not run: the matrix read, the switches' settings, the tree wired, the hosts' flows and paths drawn. Prints the
 * milliseconds and the heap in use once built.
 * {@code java -cp bench/target/benchmarks.jar io.trimswitch.bench.FatTreeBuild [NODES]} (default 8192).
 */
public final class FatTreeBuild {
    private FatTreeBuild() {
    }

    public static void main(final String[] args) {
        final int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 8192;
        final StringBuilder matrix = new StringBuilder("Nodes " + nodes + "\nConnections " + nodes + "\n");
        final int[] to = new int[nodes];
        for (int host = 0; host < nodes; host++) {
            to[host] = host;
        }
        final SplittableRandom random = new SplittableRandom(7);
        for (int i = nodes - 1; i > 0; i--) {
            final int j = random.nextInt(i + 1);
            final int swap = to[i];
            to[i] = to[j];
            to[j] = swap;
        }
        for (int host = 0; host < nodes; host++) {
            matrix.append(host).append("->").append(to[host] == host ? (host + 1) % nodes : to[host]).append(" id ").append(host + 1)
                .append(" start 0 size 2000000\n");
        }
        final long start = System.nanoTime();
        final HtsimMatrix flows = HtsimMatrix.parse(matrix.toString(), "perm_" + nodes + ".cm");
        final HtsimExperiment experiment = HtsimExperiment.of(null, flows,
            new HtsimExperiment.Options("tofino", "ideal", "ideal", 1500, 16, 12, null, null, null, null));
        final NetworkRun run = NetworkRun.of(experiment);
        final long built = System.nanoTime() - start;
        System.gc();
        final Runtime heap = Runtime.getRuntime();
        System.out.printf(Locale.ROOT, "%d hosts, %d flows: built in %d ms, %d MB of heap in use%n", run.hostCount(), flows.connections().size(),
            built / 1_000_000, (heap.totalMemory() - heap.freeMemory()) >> 20);
    }
}
