package io.trimswitch.interfaces;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The kernel's link notifications as the ports read them, crafted byte by byte as rtnetlink lays them out. */
class LinkMessagesTest {
    private static final int IFF_LOWER_UP = 0x10000;
    private static final int IF_OPER_UP = 6;
    private static final int IF_OPER_DOWN = 2;

    @Test
    void aNewLinkGivesItsIndexNameMtuAndWhetherItCarriesFrames() {
        final List<LinkMessages.Link> links = read(message(LinkMessages.RTM_NEWLINK, 7,
            LinkMessages.IFF_UP | LinkMessages.IFF_RUNNING | IFF_LOWER_UP, "sw-p2", 9000, IF_OPER_UP));
        assertEquals(1, links.size());
        final LinkMessages.Link link = links.get(0);
        assertEquals(7, link.index());
        assertEquals("sw-p2", link.name());
        assertEquals(9000, link.mtu());
        assertFalse(link.deleted());
        assertTrue(link.carries());
    }

    @Test
    void aLinkDownOnEitherSideDoesNotCarryFrames() {
        // Our end set down: no IFF_UP.
        assertFalse(read(message(LinkMessages.RTM_NEWLINK, 7, LinkMessages.IFF_RUNNING, "p", 1500, IF_OPER_UP)).get(0).carries());
        // The peer set down: up, but no carrier (no IFF_RUNNING), and RFC 2863 says down.
        assertFalse(read(message(LinkMessages.RTM_NEWLINK, 7, LinkMessages.IFF_UP, "p", 1500, IF_OPER_DOWN)).get(0).carries());
        // Flags that say running but an operational state of down: down.
        assertFalse(read(message(LinkMessages.RTM_NEWLINK, 7, LinkMessages.IFF_UP | LinkMessages.IFF_RUNNING, "p", 1500, IF_OPER_DOWN))
            .get(0).carries());
    }

    @Test
    void aDeletedLinkIsGoneWhateverItsFlags() {
        final LinkMessages.Link link = read(message(LinkMessages.RTM_DELLINK, 7,
            LinkMessages.IFF_UP | LinkMessages.IFF_RUNNING, "sw-p2", 1500, IF_OPER_UP)).get(0);
        assertTrue(link.deleted());
        assertFalse(link.carries());
    }

    @Test
    void aBatchOfADumpIsReadInOrderOtherMessagesPassedOverAndItsEndSeen() {
        final byte[] first = message(LinkMessages.RTM_NEWLINK, 1, LinkMessages.IFF_UP, "lo", 65536, 0);
        final byte[] other = header(24, 20 /* RTM_NEWADDR */, 8);
        final byte[] second = message(LinkMessages.RTM_NEWLINK, 5, LinkMessages.IFF_UP | LinkMessages.IFF_RUNNING, "tlp0", 1500, IF_OPER_UP);
        final byte[] done = header(20, LinkMessages.NLMSG_DONE, 4);
        final byte[] batch = concat(first, other, second, done);
        final List<LinkMessages.Link> links = new ArrayList<>();
        assertTrue(LinkMessages.read(new UnsafeBuffer(batch), 0, batch.length, links::add));
        assertEquals(List.of("lo", "tlp0"), links.stream().map(LinkMessages.Link::name).toList());
        assertEquals(65536, links.get(0).mtu());
    }

    @Test
    void aMessageWhoseLengthOverrunsTheBatchEndsItAndAnAttributeThatDoesNotFitIsLeftOut() {
        final byte[] whole = message(LinkMessages.RTM_NEWLINK, 3, LinkMessages.IFF_UP, "eth0", 1500, 0);
        final byte[] cut = java.util.Arrays.copyOf(whole, whole.length - 6);
        // The message says it is longer than the bytes: nothing is read from it.
        assertEquals(List.of(), read(cut));
        // The message fits but its MTU attribute claims more than is left: the name, read first, stands, the MTU does not.
        final ByteBuffer bytes = ByteBuffer.wrap(whole.clone()).order(ByteOrder.nativeOrder());
        bytes.putInt(0, whole.length);
        final int mtuAttribute = 16 + 16 + 8 + 4;
        bytes.putShort(mtuAttribute, (short) 200);
        final List<LinkMessages.Link> links = read(bytes.array());
        assertEquals(1, links.size());
        assertEquals("eth0", links.get(0).name());
        assertEquals(LinkMessages.NO_MTU, links.get(0).mtu());
    }

    @Test
    void aNameLongerThanAnInterfaceNameOrEmptyIsNoLink() {
        assertEquals(List.of(), read(message(LinkMessages.RTM_NEWLINK, 3, LinkMessages.IFF_UP, "a-name-of-16-chr", 1500, 0)));
        assertEquals(List.of(), read(message(LinkMessages.RTM_NEWLINK, 3, LinkMessages.IFF_UP, "", 1500, 0)));
    }

    /** Whatever the bytes, and wherever the batch is said to start and end, reading stays within them and never throws. */
    @FuzzTest
    void anyBytesAreReadWithinThemAsLinksOrPassedOver(final byte[] input) {
        final UnsafeBuffer buffer = new UnsafeBuffer(input);
        final int length = input.length == 0 ? 0 : (input[0] & 0xFF) * 17 - 64;
        for (final int[] span : new int[][] {{0, input.length}, {0, length}, {input.length / 2, input.length}, {3, Integer.MAX_VALUE}}) {
            LinkMessages.read(buffer, Math.min(span[0], input.length), span[1], link -> {
                assertNotNull(link.name());
                assertTrue(link.name().getBytes(StandardCharsets.UTF_8).length <= 4 * LinkMessages.NAME_BYTES);
                assertTrue(link.mtu() == LinkMessages.NO_MTU || input.length >= 48);
            });
        }
    }

    private static List<LinkMessages.Link> read(final byte[] batch) {
        final List<LinkMessages.Link> links = new ArrayList<>();
        LinkMessages.read(new UnsafeBuffer(batch), 0, batch.length, links::add);
        return links;
    }

    /** An rtnetlink link message: nlmsghdr, ifinfomsg, then IFLA_IFNAME, IFLA_MTU and IFLA_OPERSTATE attributes. */
    private static byte[] message(final int type, final int index, final int flags, final String name, final int mtu, final int operState) {
        final byte[] nameBytes = (name + "\0").getBytes(StandardCharsets.US_ASCII);
        final int nameAttribute = 4 + nameBytes.length;
        final int length = 16 + 16 + align(nameAttribute) + 8 + 8;
        final ByteBuffer bytes = ByteBuffer.allocate(length).order(ByteOrder.nativeOrder());
        bytes.put(header(length, type, 0), 0, 16);
        bytes.put((byte) 0).put((byte) 0).putShort((short) 1).putInt(index).putInt(flags).putInt(0);
        bytes.putShort((short) nameAttribute).putShort((short) LinkMessages.IFLA_IFNAME).put(nameBytes);
        bytes.position(32 + align(nameAttribute));
        bytes.putShort((short) 8).putShort((short) LinkMessages.IFLA_MTU).putInt(mtu);
        bytes.putShort((short) 5).putShort((short) LinkMessages.IFLA_OPERSTATE).put((byte) operState);
        return bytes.array();
    }

    private static byte[] header(final int length, final int type, final int payload) {
        final ByteBuffer bytes = ByteBuffer.allocate(Math.max(16, 16 + payload)).order(ByteOrder.nativeOrder());
        bytes.putInt(length).putShort((short) type).putShort((short) 2).putInt(1).putInt(0);
        return bytes.array();
    }

    private static int align(final int length) {
        return (length + 3) & ~3;
    }

    private static byte[] concat(final byte[]... parts) {
        final ByteBuffer all = ByteBuffer.allocate(java.util.Arrays.stream(parts).mapToInt(part -> part.length).sum());
        for (final byte[] part : parts) {
            all.put(part);
        }
        return all.array();
    }
}
