package io.trimswitch.ndp.live;

import io.trimswitch.dataplane.codec.NdpHeader;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Live hosts against peers that misbehave: forged, cut, replayed and misdirected datagrams are ignored and counted, and
 * a peer that vanishes ends the flow with one line after the silence limit, never a hang.
 */
@Tag("host-timing")
class HostilePeersTest {
    private static final int SESSION = 0x5EED;

    @Test
    void aReceiverIgnoresAndCountsWhatNoSenderOfTheFlowCouldHaveSentAndGivesUpOnASilentOne() throws Exception {
        try (LoopbackHosts hosts = new LoopbackHosts(1, 1, 300_000_000L);
             ScriptedPeer sender = new ScriptedPeer("127.0.0.1");
             ScriptedPeer stranger = new ScriptedPeer("127.0.0.2")) {
            final InetSocketAddress receiver = hosts.address();
            sender.data(receiver, SESSION, 0, 3, 100, false);
            sender.data(receiver, SESSION, 1, 3, 100, true);
            stranger.data(receiver, SESSION, 2, 3, 100, false);
            sender.raw(receiver, 10);
            sender.data(receiver, SESSION, 0, 3, 100, true);
            sender.data(receiver, SESSION, 7, 3, 100, false);
            final List<String> replies = new ArrayList<>();
            for (int length; (length = sender.receive(1000)) >= 0; ) {
                final int flags = HostDatagram.flags(sender.view);
                final String kind = (flags & NdpHeader.FLAG_ACK) != 0 ? "ACK" : (flags & NdpHeader.FLAG_NACK) != 0 ? "NACK" : "PULL";
                replies.add(kind + ((flags & NdpHeader.FLAG_PULL) != 0 ? "" : " " + HostDatagram.sequence(sender.view)));
                assertEquals(HostDatagram.HEADER_LENGTH, length);
                assertEquals(SESSION, HostDatagram.session(sender.view));
            }
            assertEquals(List.of("ACK 0", "NACK 1"), replies.stream().filter(reply -> !reply.equals("PULL")).toList(),
                "the whole packet ACKed, the cut one NACKed, nothing else answered");
            assertEquals(2, replies.stream().filter(reply -> reply.equals("PULL")).count(), "a PULL for each");
            assertEquals(-1, stranger.receive(200), "nothing goes to a stranger");

            final HostReport report = hosts.awaitReport(10);
            assertEquals(1, report.foreign());
            assertEquals(1, report.truncated());
            assertEquals(1, report.replayedHeaders());
            assertEquals(1, report.malformed());
            final FlowResult flow = report.flows().get(0);
            assertFalse(flow.complete());
            assertEquals(100, flow.bytes());
            assertEquals(1, flow.headers());
            assertTrue(hosts.errors.toString().contains("gave up: its sender was silent for"), hosts.errors::toString);
            assertEquals(1, hosts.errors.toString().lines().count(), hosts.errors::toString);
        }
    }

    @Test
    void aSenderWhoseReceiverNeverAnswersGivesUpAfterTheSilenceLimitWithOneLine() throws Exception {
        try (ScriptedPeer mute = new ScriptedPeer("127.0.0.1")) {
            final long start = System.nanoTime();
            final PeerSilent silent = assertThrows(PeerSilent.class,
                () -> new NdpSendingHost(LoopbackHosts.sender(mute.address(), 1, 2, 300_000_000L, 5_000)).run());
            final double seconds = (System.nanoTime() - start) / 1e9;
            assertTrue(seconds < 5, "gave up after " + seconds + " s");
            assertTrue(silent.getMessage().startsWith("no answer from 127.0.0.1:" + mute.address().getPort() + " for 0."), silent.getMessage());
            assertTrue(silent.getMessage().contains("1 of 1 flows unfinished (flow 0: 0 of 4 packets acknowledged)"), silent.getMessage());
            assertFalse(silent.getMessage().contains("\n"));
            assertFalse(silent.report().allComplete());
        }
    }

    @Test
    void aSenderIgnoresStrangersAndCutDatagramsAndResendsAHeaderTheSwitchReturned() throws Exception {
        try (ScriptedPeer receiver = new ScriptedPeer("127.0.0.1"); ScriptedPeer stranger = new ScriptedPeer("127.0.0.2")) {
            final CompletableFuture<HostReport> sending = CompletableFuture.supplyAsync(() -> {
                try {
                    // A timeout of a second: the script's replies, however slow the host, come before the packet is sent again.
                    return new NdpSendingHost(new SenderSettings(receiver.address(), new long[] {100}, 1, 1, 8, 1_000_000_000L,
                        5_000_000_000L, SenderSettings.DEFAULT_PAYLOAD, SenderSettings.TRIMMABLE_DSCP, 0)).run();
                } catch (final java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            assertEquals(HostDatagram.HEADER_LENGTH + 100, receiver.receive(3000));
            final int session = HostDatagram.session(receiver.view);
            final var sender = receiver.lastFrom;
            stranger.send(sender, NdpHeader.FLAG_ACK, session, 0, 0, 1, 0, HostDatagram.HEADER_LENGTH);
            receiver.send(sender, NdpHeader.FLAG_ACK, session ^ 1, 0, 0, 1, 0, HostDatagram.HEADER_LENGTH);
            receiver.raw(sender, 5);
            receiver.send(sender, NdpHeader.FLAG_ACK, session, 9, 0, 1, 0, HostDatagram.HEADER_LENGTH);
            // Returned to sender: the header comes back with the CHOPPED mark; the packet goes again at the next PULL.
            receiver.send(sender, NdpHeader.FLAG_DATA | NdpHeader.FLAG_CHOPPED, session, 0, 0, 1, 100, HostDatagram.HEADER_LENGTH);
            receiver.send(sender, NdpHeader.FLAG_PULL, session, 0, 0, 1, 0, HostDatagram.HEADER_LENGTH);
            assertEquals(HostDatagram.HEADER_LENGTH + 100, receiver.receive(3000), "the returned packet, sent again");
            assertEquals(0, HostDatagram.sequence(receiver.view));
            receiver.send(sender, NdpHeader.FLAG_ACK, session, 0, 0, 1, 0, HostDatagram.HEADER_LENGTH);
            final HostReport report = sending.get(10, TimeUnit.SECONDS);
            assertTrue(report.allComplete());
            assertEquals(2, report.foreign(), "an ACK from a stranger and one of another run");
            assertEquals(1, report.truncated());
            assertEquals(1, report.malformed(), "an ACK for a flow it does not have");
            assertEquals(1, report.returnedHeaders());
            assertEquals(1, report.flows().get(0).retransmissions());
            assertEquals(1, report.flows().get(0).headers());
        }
    }
}
