package io.trimswitch.realtime.shard;

/**
 * A change another thread asks of a running shard: adding or removing a port, a link's news, a capture starting or
 * stopping, new settings. The shard carries its commands out at the start of a turn, before it receives, so that
 * whatever a command changes has one writer, the shard's thread ({@link PipelineShard#enqueue}).
 */
@FunctionalInterface
public interface ShardCommand {
    /** On the shard's thread, between two turns. */
    void carryOut();
}
