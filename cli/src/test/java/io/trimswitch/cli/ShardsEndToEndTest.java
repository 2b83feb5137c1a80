package io.trimswitch.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A live switch's ports shared out over pipeline shards ({@code src/test/mininet/shards.py}), with Mininet hosts on
 * links to its interface ports: traffic between shards, and a Mininet link added while the switch runs, given to a shard
 * as a port the switch did not start with. The script checks pings, TCP, {@code ctl show}, {@code stats} and the metrics, and
 * fails at the first that is wrong. Needs root, Mininet and iperf3; CI has them.
 */
@Tag("host-timing")
class ShardsEndToEndTest {
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"af_packet", "af_xdp"})
    void hostsOnTwoShardsPingEachOtherAndTcpCrossesFromOneShardToTheOther(final String kind) throws IOException, InterruptedException {
        final String output = HostScripts.runOn(kind, "shards.py", "two-shards");
        assertTrue(output.contains("every pair of the four hosts pings, across the two shards and within each"), output);
        assertTrue(Pattern.compile("TCP from host 0 on shard 0 to host 3 on shard 1: [0-9.]+ Gb/s received").matcher(output).find(), output);
        assertTrue(output.contains("shards: passed"), output);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"af_packet", "af_xdp"})
    void aPortNumberTheSwitchDidNotStartWithIsAddedWhileItRunsAndForwards(final String kind) throws IOException, InterruptedException {
        final String output = HostScripts.runOn(kind, "shards.py", "new-port");
        assertTrue(output.contains("the new port 2 on shard 1: every pair of the three hosts pings"), output);
        assertTrue(Pattern.compile("TCP from the new port to host 0: [0-9.]+ Gb/s received").matcher(output).find(), output);
        assertTrue(output.contains("ctl show lists port 2 on thread 1; stats and the metrics endpoint count it"), output);
        assertTrue(output.contains("the new port removed and added again: host 2 pings host 0"), output);
        assertTrue(output.contains("shards: passed"), output);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"af_packet", "af_xdp"})
    void aPortAddedToAShardThatHasOthersIsServedForEveryPacketItIsGiven(final String kind) throws IOException, InterruptedException {
        // One shard: its egress looks only at the ports the traffic manager wakes, and the new port must be among them.
        final String output = HostScripts.runOn(kind, "shards.py", "new-port-one-shard");
        assertTrue(output.contains("the new port 2 on shard 0: every pair of the three hosts pings"), output);
        assertTrue(Pattern.compile("TCP from the new port to host 0: [0-9.]+ Gb/s received").matcher(output).find(), output);
        assertTrue(output.contains("shards: passed"), output);
    }
}
