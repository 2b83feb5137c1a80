package io.trimswitch.realtime.shard;

import java.lang.invoke.VarHandle;

/**
 * The sleep and wake-up handshake of one shard (Dekker's): before it sleeps the shard says so and then looks for work
 * once more; a thread that gave it work looks whether it sleeps, and wakes it. Either the sleeper sees the work, or the
 * giver sees the sleeper. A shard that did work wakes those of its peers that sleep with packets on their rings.
 */
final class ShardWakeUp {
    /** What a peer looks at before it wakes this shard: packets on its rings, which any thread may fill. */
    @FunctionalInterface
    interface QueuedInput {
        boolean hasQueuedInput();
    }

    private final QueuedInput input;
    /** Set while the shard's thread sleeps, or is about to. */
    private volatile boolean asleep;
    /** Where the shard sleeps: its ports' poller, or a park. */
    private PortList sleepsIn;
    private ShardWakeUp[] peers = new ShardWakeUp[0];

    ShardWakeUp(final QueuedInput input) {
        this.input = input;
    }

    /** The ports whose sleep a wake-up ends; before the shard's thread starts. */
    void sleepsIn(final PortList ports) {
        this.sleepsIn = ports;
    }

    /** The switch's other shards' wake-ups, which this shard rings when it leaves them work. */
    void peers(final ShardWakeUp[] others) {
        this.peers = others.clone();
    }

    /** The shard is about to sleep: from now on a giver of work wakes it; it looks for work once more after this. */
    void goingToSleep() {
        asleep = true;
        VarHandle.fullFence();
    }

    /** The shard is up (or will not sleep after all). */
    void awake() {
        asleep = false;
    }

    /** From any thread: ends the shard's sleep now, or makes its next one return at once. */
    void wake() {
        sleepsIn.wake();
    }

    /** After a turn that did work: wakes each peer that sleeps with packets this turn may have put on its rings. */
    void wakePeersWithWork() {
        if (peers.length == 0) {
            return;
        }
        VarHandle.fullFence();
        for (final ShardWakeUp peer : peers) {
            if (peer.asleep && peer.input.hasQueuedInput()) {
                peer.asleep = false;
                peer.wake();
            }
        }
    }
}
