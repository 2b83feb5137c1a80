package io.trimswitch.realtime.shard;

import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A shard's one door for other threads: what they ask of it ({@link ShardCommand}), carried out at the start of its next
 * turn, so that what a command changes has one writer, the shard's thread. Whoever enqueues wakes the shard. Its poll
 * allocates nothing when empty; an offer allocates a node, which a rare command may.
 */
public final class CommandQueue {
    /** Commands in a turn at most: a burst of link news (a topology torn down) does not hold up forwarding. */
    private static final int COMMANDS_PER_TURN = 64;
    /** News that may wait at most; more is lost, as a full inbox loses its messages. */
    public static final int MOST_NEWS = 4096;

    /** A command the shard needs only before its next frame: what another shard learned, say. */
    public interface News extends ShardCommand {
    }

    private final ManyToOneConcurrentLinkedQueue<ShardCommand> commands = new ManyToOneConcurrentLinkedQueue<>();
    private final ShardWakeUp wakeUp;
    /** News queued and not yet carried out: written by every teller and by the shard. */
    private final AtomicInteger newsWaiting = new AtomicInteger();

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

    /**
     * From any thread: {@code news} is carried out at the start of the shard's next turn, which a frame starts anyway
     * (commands come before receiving), so it does not wake the shard. Lost, returning false, when {@link #MOST_NEWS}
     * wait already: a shard flooded with news falls back on what it knows until it is told again.
     */
    public boolean tell(final News news) {
        if (newsWaiting.incrementAndGet() > MOST_NEWS) {
            newsWaiting.decrementAndGet();
            return false;
        }
        commands.offer(news);
        return true;
    }

    /** On the shard's thread: carries out what waits, a few dozen at most; returns how many. */
    int carryOut() {
        int done = 0;
        for (ShardCommand command = commands.poll(); command != null; command = done < COMMANDS_PER_TURN ? commands.poll() : null) {
            command.carryOut();
            if (command instanceof News) {
                newsWaiting.decrementAndGet();
            }
            done++;
        }
        return done;
    }

    boolean isEmpty() {
        return commands.isEmpty();
    }
}
