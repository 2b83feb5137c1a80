package io.trimswitch.ndp.live;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class SourcePortSprayTest {
    @Test
    void eachRoundUsesEveryPathOnceAndNeverStartsOnThePathThatEndedTheLast() {
        final int paths = 3;
        final SourcePortSpray spray = new SourcePortSpray(2, paths, 7);
        int last = -1;
        for (int round = 0; round < 200; round++) {
            final Set<Integer> used = new HashSet<>();
            int path = -1;
            for (int packet = 0; packet < paths; packet++) {
                path = spray.next(1);
                if (packet == 0) {
                    assertNotEquals(last, path, "round " + round);
                }
                used.add(path);
            }
            assertEquals(Set.of(0, 1, 2), used, "round " + round);
            last = path;
        }
    }

    @Test
    void onePathMeansOneSourcePort() {
        final SourcePortSpray spray = new SourcePortSpray(1, 1, 7);
        for (int packet = 0; packet < 10; packet++) {
            assertEquals(0, spray.next(0));
        }
    }
}
