package io.trimswitch.network.topology;

import io.trimswitch.network.NetworkSettings;
import io.trimswitch.network.NetworkSpec;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** NDP's spraying: each round uses every usable spine once, and no path follows itself. */
class PathSprayingTest {
    private static LeafSpine network(final NetworkSpec.LinkEnd... down) {
        final NetworkSpec spec = new NetworkSpec();
        spec.topology.spines = 4;
        spec.topology.failedLinks.addAll(Arrays.asList(down));
        return new LeafSpine(NetworkSettings.of(spec));
    }

    @Test
    void everyRoundIsAPermutationOfTheSpinesAndNoPathRepeatsBackToBack() {
        final PathSpraying spraying = new PathSpraying(network(), new int[] {0, 5}, new int[] {12, 9}, 7);
        for (final boolean towardsReceiver : new boolean[] {true, false}) {
            for (int flow = 0; flow < 2; flow++) {
                int last = -1;
                final int[] round = new int[4];
                for (int packet = 0; packet < 400; packet++) {
                    final int path = spraying.next(flow, towardsReceiver);
                    assertNotEquals(last, path, "packet " + packet + " takes the path of the one before");
                    last = path;
                    round[packet % 4] = path;
                    if (packet % 4 == 3) {
                        final int[] sorted = round.clone();
                        Arrays.sort(sorted);
                        assertArrayEquals(new int[] {0, 1, 2, 3}, sorted, "round " + packet / 4);
                    }
                }
            }
        }
    }

    @Test
    void theOrderDependsOnTheSeedAndRepeatsAfterAReset() {
        final PathSpraying one = new PathSpraying(network(), new int[] {0}, new int[] {12}, 7);
        final int[] first = new int[40];
        for (int i = 0; i < first.length; i++) {
            first[i] = one.next(0, true);
        }
        one.reset();
        final int[] again = new int[40];
        final int[] otherSeed = new int[40];
        final PathSpraying other = new PathSpraying(network(), new int[] {0}, new int[] {12}, 8);
        for (int i = 0; i < first.length; i++) {
            again[i] = one.next(0, true);
            otherSeed[i] = other.next(0, true);
        }
        assertArrayEquals(first, again);
        assertNotEquals(Arrays.toString(first), Arrays.toString(otherSeed));
    }

    @Test
    void aFailedLinkIsLeftOutOfEveryRound() {
        final NetworkSpec.LinkEnd down = new NetworkSpec.LinkEnd();
        down.leaf = 3;
        down.spine = 2;
        final PathSpraying spraying = new PathSpraying(network(down), new int[] {0}, new int[] {12}, 1);
        final int[] used = new int[4];
        for (int packet = 0; packet < 300; packet++) {
            used[spraying.next(0, true)]++;
            used[spraying.next(0, false)]++;
        }
        assertArrayEquals(new int[] {200, 200, 0, 200}, used);
    }

    @Test
    void withinARackThereIsOnePath() {
        final PathSpraying spraying = new PathSpraying(network(), new int[] {0}, new int[] {1}, 1);
        assertEquals(0, spraying.next(0, true));
        assertEquals(0, spraying.next(0, true));
    }

    @Test
    void onceAFailureIsKnownTheSendersStopUsingItAndAResetBringsItBack() {
        final LeafSpine network = network();
        final PathSpraying spraying = new PathSpraying(network, new int[] {0}, new int[] {12}, 3);
        final int[] before = new int[4];
        for (int packet = 0; packet < 40; packet++) {
            before[spraying.next(0, true)]++;
        }
        assertArrayEquals(new int[] {10, 10, 10, 10}, before);
        network.fail(3, 1);
        spraying.pathsChanged();
        final int[] after = new int[4];
        for (int packet = 0; packet < 30; packet++) {
            after[spraying.next(0, true)]++;
            after[spraying.next(0, false)]++;
        }
        assertArrayEquals(new int[] {20, 0, 20, 20}, after);
        network.reset();
        spraying.reset();
        final int[] again = new int[4];
        for (int packet = 0; packet < 40; packet++) {
            again[spraying.next(0, true)]++;
        }
        assertArrayEquals(new int[] {10, 10, 10, 10}, again);
    }
}
