package io.trimswitch.network.topology;

import io.trimswitch.simulator.PathChoice;

/**
 * NDP's spraying: each flow's sender (and, for its ACKs, NACKs and PULLs, its receiver) walks a seeded random
 * permutation of the spines that reach the other end, one packet per spine, and draws a new permutation when it has
 * used them all ({@link SprayRounds}).
 */
public final class PathSpraying implements PathChoice {
    private final LeafSpine network;
    /** Per flow and direction (2 f towards the receiver, 2 f + 1 back): the leaf it leaves from and the leaf it goes to. */
    private final int[] fromLeaf;
    private final int[] toLeaf;
    /** Per flow and direction: the usable spines, in this round's order. */
    private final SprayRounds rounds;

    public PathSpraying(final LeafSpine network, final int[] sender, final int[] receiver, final long seed) {
        this.network = network;
        final int directions = 2 * sender.length;
        this.fromLeaf = new int[directions];
        this.toLeaf = new int[directions];
        for (int flow = 0; flow < sender.length; flow++) {
            fromLeaf[2 * flow] = network.leafOf(sender[flow]);
            toLeaf[2 * flow] = network.leafOf(receiver[flow]);
            fromLeaf[2 * flow + 1] = toLeaf[2 * flow];
            toLeaf[2 * flow + 1] = fromLeaf[2 * flow];
        }
        this.rounds = new SprayRounds(directions, seed);
        reset();
    }

    /** The senders have learnt of a failed link: each whose usable spines changed starts a new round over those left. */
    public void pathsChanged() {
        for (int direction = 0; direction < rounds.directions(); direction++) {
            final int[] usable = network.usableSpines(fromLeaf[direction], toLeaf[direction]);
            if (usable.length != rounds.paths(direction)) {
                rounds.restart(direction, usable.clone());
            }
        }
    }

    @Override
    public int next(final int flow, final boolean towardsReceiver) {
        return rounds.next(towardsReceiver ? 2 * flow : 2 * flow + 1);
    }

    @Override
    public void reset() {
        for (int direction = 0; direction < rounds.directions(); direction++) {
            rounds.reset(direction, network.usableSpines(fromLeaf[direction], toLeaf[direction]).clone());
        }
    }
}
