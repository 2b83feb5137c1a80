package io.trimswitch.network.run;

import io.trimswitch.network.NetworkSettings;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.config.ConfigException;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The flows of a network's workload, fixed before the run: each one's sending host, receiving host, start and size.
 * Every draw is seeded by the workload's seed.
 */
final class NetworkWorkload {
    private static final int MAX_FLOWS = 65_536;

    final int[] sender;
    final int[] receiver;
    final long[] start;
    final int[] size;
    final String description;

    private NetworkWorkload(final List<long[]> flows, final String description) {
        final int count = flows.size();
        this.sender = new int[count];
        this.receiver = new int[count];
        this.start = new long[count];
        this.size = new int[count];
        for (int flow = 0; flow < count; flow++) {
            final long[] f = flows.get(flow);
            sender[flow] = (int) f[0];
            receiver[flow] = (int) f[1];
            start[flow] = f[2];
            size[flow] = (int) f[3];
        }
        this.description = description;
    }

    static NetworkWorkload of(final NetworkSettings settings) {
        final NetworkSettings.Workload w = settings.workload();
        final NetworkSettings.Topology t = settings.topology();
        final long packetTime = new LinkRate(Math.round(t.hostRateGbps() * 1e9)).serialisation(w.packetBytes());
        final SplittableRandom random = new SplittableRandom(w.seed());
        final List<long[]> flows = new ArrayList<>();
        final String description;
        switch (w.kind()) {
            case PERMUTATION -> {
                final int[] to = permutation(t, random);
                for (int host = 0; host < to.length; host++) {
                    flows.add(new long[] {host, to[host], 0, w.packets()});
                }
                description = "permutation of " + t.hosts() + " hosts, " + w.packets() + " packets each";
            }
            case INCAST -> {
                final int perRack = w.sendersPerRack() == 0 ? t.hostsPerLeaf() : w.sendersPerRack();
                for (int rack = 1; rack <= w.racks(); rack++) {
                    for (int i = 0; i < perRack; i++) {
                        flows.add(new long[] {(long) rack * t.hostsPerLeaf() + i, 0, 0, w.packets()});
                    }
                }
                description = "incast of " + w.racks() + " racks × " + perRack + " hosts into host 0, " + w.packets() + " packets each";
            }
            case ALL_TO_ALL -> {
                for (int from = 0; from < t.hosts(); from++) {
                    for (int to = 0; to < t.hosts(); to++) {
                        if (to != from) {
                            flows.add(new long[] {from, to, 0, w.packets()});
                        }
                    }
                }
                description = "all-to-all of " + t.hosts() + " hosts, " + w.packets() + " packets each";
            }
            default -> {
                poisson(settings, packetTime, random, flows);
                description = "flows at load " + w.load() + " over " + w.durationUs() + " µs ("
                    + (w.flowSizes() == null ? w.packets() + " packets each" : "sizes from " + w.flowSizes()) + ")";
            }
        }
        if (flows.size() > MAX_FLOWS) {
            throw new ConfigException("the workload makes " + flows.size() + " flows; at most " + MAX_FLOWS + " fit");
        }
        if (w.startJitter() && w.kind() != NetworkSettings.WorkloadKind.FLOWS) {
            final SplittableRandom jitter = new SplittableRandom(w.seed() ^ 0x5EED_0F_F10E5L);
            for (final long[] flow : flows) {
                flow[2] = jitter.nextLong(packetTime);
            }
        }
        return new NetworkWorkload(flows, description);
    }

    /**
     * Every host to one other, each receiving once: a seeded shuffle, redrawn until no host sends within its own rack
     * (with one rack: to itself). After many draws without one, the racks are shifted by one instead.
     */
    private static int[] permutation(final NetworkSettings.Topology t, final SplittableRandom random) {
        final int hosts = t.hosts();
        final int[] to = new int[hosts];
        for (int attempt = 0; attempt < 1000; attempt++) {
            for (int i = 0; i < hosts; i++) {
                to[i] = i;
            }
            for (int i = hosts - 1; i > 0; i--) {
                final int j = random.nextInt(i + 1);
                final int swap = to[i];
                to[i] = to[j];
                to[j] = swap;
            }
            boolean acceptable = true;
            for (int host = 0; host < hosts && acceptable; host++) {
                acceptable = t.leaves() == 1 ? to[host] != host : to[host] / t.hostsPerLeaf() != host / t.hostsPerLeaf();
            }
            if (acceptable) {
                return to;
            }
        }
        for (int host = 0; host < hosts; host++) {
            to[host] = t.leaves() == 1 ? (host + 1) % hosts : (host + t.hostsPerLeaf()) % hosts;
        }
        return to;
    }

    /** Poisson arrivals per host offering {@code load} of its rate, each flow to a random host of another rack. */
    private static void poisson(final NetworkSettings settings, final long packetTime, final SplittableRandom random, final List<long[]> flows) {
        final NetworkSettings.Workload w = settings.workload();
        final NetworkSettings.Topology t = settings.topology();
        final int[] sizes = settings.flowSizes();
        double mean = 0;
        for (final int size : sizes) {
            mean += size;
        }
        mean /= sizes.length;
        final double meanGap = mean * packetTime / w.load();
        final long horizon = Picos.fromMicros(w.durationUs());
        final List<long[]> arrivals = new ArrayList<>();
        for (int host = 0; host < t.hosts(); host++) {
            long time = (long) (-Math.log(1 - random.nextDouble()) * meanGap);
            while (time < horizon) {
                int destination;
                do {
                    destination = random.nextInt(t.hosts());
                } while (t.leaves() == 1 ? destination == host : destination / t.hostsPerLeaf() == host / t.hostsPerLeaf());
                arrivals.add(new long[] {host, destination, time, sizes[random.nextInt(sizes.length)]});
                if (arrivals.size() > MAX_FLOWS) {
                    throw new ConfigException("workload.load and workload.durationUs make more than " + MAX_FLOWS + " flows; lower either");
                }
                time += (long) Math.max(1, -Math.log(1 - random.nextDouble()) * meanGap);
            }
        }
        // Flow numbers in start order, so that a flow's number says when it began.
        arrivals.sort((a, b) -> a[2] != b[2] ? Long.compare(a[2], b[2]) : Long.compare(a[0], b[0]));
        flows.addAll(arrivals);
    }
}
