package io.trimswitch.interfaces;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The kernel's news of links, on a veth pair the test makes and removes: a followed interface hears of its own link
 * alone, its state when the watcher starts, each change after, and its removal. Making a veth needs root: elsewhere these
 * tests are skipped.
 */
class LinkWatcherTest {
    private final String name = "tswlw" + ProcessHandle.current().pid() % 100_000;
    private final String peer = name + "p";
    private final LinkedBlockingQueue<LinkMessages.Link> heard = new LinkedBlockingQueue<>();
    private LinkWatcher watcher;

    @BeforeEach
    void makeVeth() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "making a veth needs CAP_NET_ADMIN (root)");
        assumeTrue(ip("link", "add", name, "type", "veth", "peer", "name", peer) == 0, "cannot make a veth here");
        watcher = LinkWatcher.open();
        watcher.follow(name, heard::add);
    }

    @AfterEach
    void removeVeth() throws Exception {
        if (watcher != null) {
            watcher.close();
        }
        ip("link", "del", name);
    }

    @Test
    void aFollowedInterfaceHearsItsStateAtTheStartThenEachChangeOfItsLink() throws Exception {
        watcher.start(LinkWatcherTest::onItsOwnThread);
        final LinkMessages.Link atStart = await(link -> true, "its state at the start");
        assertTrue(!atStart.carries(), "a veth not yet up carries nothing");

        ip("link", "set", peer, "up");
        ip("link", "set", name, "up");
        await(LinkMessages.Link::carries, "up with its peer up");
        ip("link", "set", peer, "down");
        await(link -> !link.carries() && !link.deleted(), "its carrier lost as its peer went down");
        ip("link", "set", name, "mtu", "1400");
        assertEquals(1400, await(link -> link.mtu() == 1400, "its new MTU").mtu());
    }

    @Test
    void aFollowedInterfaceHearsOfItsOwnLinkAlone() throws Exception {
        watcher.start(LinkWatcherTest::onItsOwnThread);
        await(link -> true, "its state at the start");
        ip("link", "set", peer, "mtu", "1300");
        ip("link", "set", name, "mtu", "1280");
        await(link -> link.mtu() == 1280, "its own change");
        final List<LinkMessages.Link> rest = new java.util.ArrayList<>();
        heard.drainTo(rest);
        assertTrue(rest.stream().allMatch(link -> link.name().equals(name)), "heard of another link: " + rest);
    }

    @Test
    void aRemovedInterfaceIsHeardAsGone() throws Exception {
        watcher.start(LinkWatcherTest::onItsOwnThread);
        await(link -> true, "its state at the start");
        ip("link", "del", name);
        assertTrue(await(LinkMessages.Link::deleted, "its removal").deleted());
    }

    /** The first news heard that {@code wanted} takes, within 5 s; the news before it is dropped. */
    private LinkMessages.Link await(final Predicate<LinkMessages.Link> wanted, final String what) throws InterruptedException {
        final long deadline = System.nanoTime() + 5_000_000_000L;
        while (System.nanoTime() < deadline) {
            final LinkMessages.Link link = heard.poll(100, TimeUnit.MILLISECONDS);
            if (link != null) {
                assertEquals(name, link.name());
                if (wanted.test(link)) {
                    return link;
                }
            }
        }
        assertNotNull(null, "heard no news of " + what + " within 5 s");
        return null;
    }

    private static int ip(final String... words) throws Exception {
        final List<String> command = new java.util.ArrayList<>(List.of("ip"));
        command.addAll(List.of(words));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
    }

    /** The watcher's thread, as the switch starts it. */
    private static void onItsOwnThread(final Runnable watching) {
        Thread.ofPlatform().daemon().name("links").start(watching);
    }
}
