package io.trimswitch.realtime.shard;

import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;

import java.util.concurrent.CompletableFuture;

/**
 * A shard's one door for other threads: what they ask of it ({@link ShardCommand}), carried out at the start of its next
 * turn, so that what a command changes has one writer, the shard's thread. Whoever enqueues wakes the shard. Its poll
 * allocates nothing when empty; an offer allocates a node, which a rare command may.
 */
public final class CommandQueue {
    /** Commands in a turn at most: a burst of link news (a topology torn down) does not hold up forwarding. */
    private static final int COMMANDS_PER_TURN = 64;

    private final ManyToOneConcurrentLinkedQueue<ShardCommand> commands = new ManyToOneConcurrentLinkedQueue<>();
    private final ShardWakeUp wakeUp;

    CommandQueue(final ShardWakeUp wakeUp) {
        this.wakeUp = wakeUp;
    }

    /** From any thread: the shard carries {@code command} out at the start of its next turn; it is woken if asleep. */
    public void enqueue(final ShardCommand command) {
        commands.offer(command);
        wakeUp.wake();
    }

    /** The same, for a caller that waits: done once the command has been carried out, or failed with what it threw. */
    public CompletableFuture<Void> submit(final ShardCommand command) {
        final CompletableFuture<Void> done = new CompletableFuture<>();
        enqueue(() -> {
            try {
                command.carryOut();
                done.complete(null);
            } catch (final RuntimeException e) {
                done.completeExceptionally(e);
            }
        });
        return done;
    }

    /** On the shard's thread: carries out what waits, a few dozen at most; returns how many. */
    int carryOut() {
        int done = 0;
        for (ShardCommand command = commands.poll(); command != null; command = done < COMMANDS_PER_TURN ? commands.poll() : null) {
            command.carryOut();
            done++;
        }
        return done;
    }

    boolean isEmpty() {
        return commands.isEmpty();
    }
}
