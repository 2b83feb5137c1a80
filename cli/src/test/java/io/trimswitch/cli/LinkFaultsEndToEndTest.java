package io.trimswitch.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The faults of a lab's links under a running switch ({@code src/test/mininet/link_faults.py}), one per test, each on a
 * Mininet lab of its own: two hosts linked to {@code trimswitch run}'s interface ports under
 * {@code --idle poll}. The script checks the switch's lines, its counters and pings, and fails at the first that is
 * wrong; these tests check that it got to the end of its fault, with the ports on either kind ({@code af_packet},
 * {@code af_xdp}). Needs root, Mininet, iproute2 and ping; CI has them.
 */
@Tag("host-timing")
class LinkFaultsEndToEndTest {
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"af_packet", "af_xdp"})
    void aLinkSetDownOnTheSwitchsSideCountsItsFramesAsLinkDownAndLosesNoFrameWhenUp(final String kind) throws IOException, InterruptedException {
        final String output = HostScripts.runOn(kind, "link_faults.py", "flap-switch-side");
        assertFlapped(output);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"af_packet", "af_xdp"})
    void aLinkSetDownOnTheHostsSideCountsItsFramesAsLinkDownAndLosesNoFrameWhenUp(final String kind) throws IOException, InterruptedException {
        final String output = HostScripts.runOn(kind, "link_faults.py", "flap-host-side");
        assertFlapped(output);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"af_packet", "af_xdp"})
    void aVethDeletedAndMadeAgainIsAttachedAgainWithinASecond(final String kind) throws IOException, InterruptedException {
        final String output = HostScripts.runOn(kind, "link_faults.py", "recreate");
        assertTrue(output.contains("): gone"), output);
        assertTrue(Pattern.compile("re-made: port 1 \\(tl[0-9]+s1-eth2\\): back, ifindex [0-9]+ .*ping works again").matcher(output).find(), output);
        assertTrue(output.contains("faults: passed"), output);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"af_packet", "af_xdp"})
    void anMtuRaisedLetsJumboFramesCrossAndAnMtuLoweredDropsThemAsMtuExceeded(final String kind) throws IOException, InterruptedException {
        assumeTrue("af_packet".equals(kind), "an af_xdp port takes frames of at most 3822 bytes (a 4 KB UMEM chunk): jumbo frames need af_packet");
        final String output = HostScripts.runOn(kind, "link_faults.py", "mtu");
        assertTrue(output.contains("MTU raised to 9000: the switch said so, and 9000-byte packets cross"), output);
        assertTrue(output.contains("9000-byte frames counted as mtuExceeded, not as sent"), output);
        assertTrue(output.contains("faults: passed"), output);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"af_packet", "af_xdp"})
    void aSecondSwitchOnTheSameInterfaceIsRefusedInOneLineNamingTheFirstsProcess(final String kind) throws IOException, InterruptedException {
        final String output = HostScripts.runOn(kind, "link_faults.py", "second-switch");
        assertTrue(Pattern.compile("refused \\(--counters .*\\): trimswitch: interface tl[0-9]+s1-eth1 is already attached by a running switch, process [0-9]+")
            .matcher(output).find(), output);
        assertTrue(output.contains("refused (the same counters file): trimswitch: interface"), output);
        assertTrue(output.contains("stats after SIGKILL: trimswitch: the counters at "), output);
        assertTrue(output.contains("ctl after SIGKILL: trimswitch: control socket "), output);
        assertTrue(output.contains("after SIGKILL of the first, a new switch takes the interfaces over and forwards"), output);
        assertTrue(output.contains("faults: passed"), output);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"af_packet", "af_xdp"})
    void anIdleSwitchWithAPortDownAndAPortGoneDoesNotSpin(final String kind) throws IOException, InterruptedException {
        final String output = HostScripts.runOn(kind, "link_faults.py", "idle-cpu");
        assertTrue(Pattern.compile("port 0 down and port 1 gone, the idle switch used [0-9]+ ms of CPU in 3 s").matcher(output).find(), output);
        assertTrue(output.contains("faults: passed"), output);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"af_packet", "af_xdp"})
    void aPortRemovedAndAddedOnAnotherInterfaceWhileRunningForwardsAgainButNotOnAnInterfaceThatDoesNotExist(final String kind) throws IOException, InterruptedException {
        final String output = HostScripts.runOn(kind, "link_faults.py", "move-port");
        assertTrue(Pattern.compile("removed: [0-9]+ frames counted as portRemoved; its interface is free").matcher(output).find(), output);
        assertTrue(Pattern.compile("added on tl[0-9]+s1-eth3 at 10 Gb/s: ping works again; the capture kept [0-9]+ frames across the move; nosuch0 refused; show macs lists host 1 on port 1").matcher(output).find(), output);
        assertTrue(output.contains("faults: passed"), output);
    }

    private static void assertFlapped(final String output) {
        assertTrue(output.contains("): down"), output);
        assertTrue(Pattern.compile("while down: [0-9]+ frames counted as linkDown, none as sent or txBusy; stats and Prometheus show port 1 down").matcher(output).find(), output);
        assertTrue(output.contains("up again: the first ping crossed; stats and Prometheus show port 1 up"), output);
        assertTrue(output.contains("faults: passed"), output);
    }
}
