package io.trimswitch.live.port;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.counters.LivePortCounters;
import io.trimswitch.dataplane.ports.PortKinds;
import io.trimswitch.dataplane.ports.RegisteredKind;
import io.trimswitch.realtime.shard.PortKind;
import io.trimswitch.realtime.shard.ShardedDataplane;

import java.net.InetSocketAddress;
import java.util.function.IntSupplier;

/**
 * A kind of port of the live switch beside its interface ports, in a package of its own that the switch finds by its
 * name through {@link PortKinds} ({@code udp}: UDP/VXLAN sockets): its settings block, each shard's share of its ports,
 * and how a user reads them.
 */
public interface LivePortKind extends RegisteredKind {
    /** The kind of every port that the settings do not put on an interface. */
    String UDP = "udp";

    /** The kind called {@code name}. */
    static LivePortKind named(final String name) {
        return PortKinds.named(LivePortKind.class, name);
    }

    /**
     * The ports of this kind that {@code settings} list, in order, its settings block checked.
     *
     * @throws io.trimswitch.config.ConfigException in one line naming the setting
     */
    int[] ports(Settings settings);

    /**
     * The kernel's count of what it dropped on this kind's sockets for want of room ({@code socketOverflow}), read by the
     * gauges' thread; null when {@code settings} give the kind no port.
     */
    KernelDrops kernelDrops(Settings settings);

    /**
     * A shard's ports of this kind, {@code own} of them, which receive their frames into buffers that {@code context}
     * gives, a descriptor each in the shard's burst.
     */
    ShardPorts open(Settings settings, int[] own, Context context);

    /**
     * What a shard gives its ports: its dataplane, a free buffer of its partition for each frame received
     * ({@code allocate}), its ports' drop counters ({@code counters}, by port), and where the ports' own counters live,
     * written by {@code writer}.
     */
    record Context(ShardedDataplane dataplane, IntSupplier allocate, LivePortCounters[] counters, CounterRegistry registry, String writer) {
    }

    /** The kernel's drops on a kind's sockets, read afresh once a sample and closed with the gauges. */
    interface KernelDrops extends AutoCloseable {
        void refresh();

        /** What the kernel dropped so far for the socket bound to {@code localPort}, as of the last {@link #refresh()}. */
        long drops(int localPort);

        @Override
        void close();
    }

    /** One shard's ports of a kind. */
    interface ShardPorts {
        /** What the shard's port list holds for them. */
        PortKind kind();

        int[] ports();

        /** Before the shard's {@code thread} starts: the ports get ready on its turns. */
        void startingOn(Thread thread);

        /**
         * Once the shard's thread runs: waits until the ports are ready, and wakes the shard on their descriptors.
         *
         * @throws IllegalStateException in one line naming the port when one cannot be made ready
         */
        void awaitReady();

        /** From another thread, when the shard's thread never ran: what the ports hold goes. */
        void closeUnrun();

        /** The address {@code port} listens on. */
        InetSocketAddress localAddress(int port);

        /** Where {@code port} sits, as {@code ctl show ports} gives it. */
        String attachment(int port);

        /** The start of {@code port}'s start-up line, its kind first. */
        String describe(int port);
    }
}
