package io.trimswitch.realtime.shard;

/** The file descriptors a shard sleeps on ({@link ShardSleep}): a port kind adds those its frames come on. From any thread. */
public interface FileDescriptorWatch {
    /** Wakes the shard when {@code fd} has data; a packet socket's pending error (a fallen link) is read on waking. */
    void add(int fd, boolean packetSocket);

    /** Stops watching {@code fd}, before it is closed. */
    void remove(int fd);
}
