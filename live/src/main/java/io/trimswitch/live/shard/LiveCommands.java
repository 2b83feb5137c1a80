package io.trimswitch.live.shard;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.time.IngressLinks;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.interfaces.InterfacePorts;
import io.trimswitch.live.capture.LiveCapture;
import io.trimswitch.live.port.LivePorts;
import io.trimswitch.pipelines.BridgeForwarding;
import io.trimswitch.pipelines.LearningBridge;
import io.trimswitch.realtime.shard.DilatedClock;
import io.trimswitch.realtime.shard.ShardCommand;
import io.trimswitch.realtime.shard.ShardedDataplane;

import java.util.Map;

/**
 * What the control socket and the link watcher ask of a live shard, each a command its thread carries out at the start
 * of a turn: the ports, their links, their captures and the settings a running switch may change have that thread as
 * their one writer.
 */
public final class LiveCommands {
    private LiveCommands() {
    }

    /** Takes port {@code port}, which the switch did not start with, and attaches it to {@code interfaceName}. */
    record AddPort(LivePorts ports, int port, String interfaceName) implements ShardCommand {
        @Override
        public void carryOut() {
            ports.adopt(port, interfaceName);
        }
    }

    /** Shard {@code shard}'s floods reach port {@code port} too, which the switch took while it runs. */
    record FloodAlsoTo(BridgeForwarding forwarding, int shard, int port) implements ShardCommand {
        @Override
        public void carryOut() {
            forwarding.floodAlsoTo(shard, port);
        }
    }

    /** Attaches a port removed before, or one waiting for its interface, to {@code interfaceName}. */
    public record AttachPort(InterfacePorts ports, int port, String interfaceName) implements ShardCommand {
        @Override
        public void carryOut() {
            ports.attachTo(port, interfaceName);
        }
    }

    /** Removes interface port {@code port}: its socket and ring close, and what still comes for it is dropped. */
    public record RemovePort(InterfacePorts ports, int port) implements ShardCommand {
        @Override
        public void carryOut() {
            ports.remove(port);
        }
    }

    /** The kernel's news of one port's link. */
    record FollowLink(InterfacePorts ports, InterfacePorts.LinkNews news) implements ShardCommand {
        @Override
        public void carryOut() {
            ports.take(news);
        }
    }

    /** Port {@code port}'s frames, received and sent, go to {@code capture} too. */
    public record StartCapture(LivePorts ports, int port, LiveCapture capture) implements ShardCommand {
        @Override
        public void carryOut() {
            ports.capture(port, capture);
        }
    }

    /** Port {@code port}'s frames go to no capture any more: its file may close. */
    public record StopCapture(LivePorts ports, int port) implements ShardCommand {
        @Override
        public void carryOut() {
            ports.capture(port, null);
        }
    }

    /** The shard's pipelines, egress ports and ingress links take what changed from {@code from} to {@code to}. */
    record Retune(ShardedDataplane dataplane, int shard, IngressLinks links, Settings from, Settings to) implements ShardCommand {
        @Override
        public void carryOut() {
            final java.util.List<Integer> rateChanged = dataplane.assembly().retune(from, to,
                pipeline -> dataplane.ownership().ingressShard(pipeline) == shard, port -> dataplane.ownership().egressShard(port) == shard);
            for (final int port : rateChanged) {
                if (port < to.portCount()) {
                    links.rate(port, new LinkRate(to.portRateBps(port)));
                }
            }
            // The link of another shard's port whose receive queues this one reads paces what it reads too.
            for (int port = 0; port < Math.min(from.portCount(), to.portCount()); port++) {
                if (from.portRateBps(port) != to.portRateBps(port) && !rateChanged.contains(port)) {
                    links.rate(port, new LinkRate(to.portRateBps(port)));
                }
            }
        }
    }

    /**
     * The shard's copy of the learning bridge, as old as {@code clock} now says, into {@code into}: the youngest of each
     * address; and what it could not learn for want of room, added to {@code notLearned[0]}.
     */
    record ReadMacs(LearningBridge bridge, DilatedClock clock, Map<Long, LearnedMac> into, long[] notLearned) implements ShardCommand {
        @Override
        public void carryOut() {
            notLearned[0] += bridge.refused();
            bridge.forEach(clock.nowPicos() / 1000, (mac, port, age, isStatic) -> into.merge(mac, new LearnedMac(mac, port, age, isStatic),
                (known, seen) -> seen.ageNanos() < known.ageNanos() ? seen : known));
        }
    }
}
