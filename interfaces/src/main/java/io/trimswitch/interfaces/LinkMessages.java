package io.trimswitch.interfaces;

import org.agrona.DirectBuffer;

import java.nio.charset.StandardCharsets;

/**
 * Reads the kernel's link notifications (rtnetlink RTM_NEWLINK and RTM_DELLINK, as a NETLINK_ROUTE socket subscribed to
 * RTMGRP_LINK receives them, or as a link dump answers): per message, the interface's index, name, flags, MTU and
 * operational state. Whatever the bytes, it reads only within them and never throws: a message whose lengths do not add
 * up ends the batch, and an attribute that does not fit is left out.
 */
final class LinkMessages {
    static final int NLMSG_HEADER_BYTES = 16;
    static final int IFINFOMSG_BYTES = 16;
    static final int NLMSG_DONE = 3;
    static final int RTM_NEWLINK = 16;
    static final int RTM_DELLINK = 17;
    static final int RTM_GETLINK = 18;
    static final int IFLA_IFNAME = 3;
    static final int IFLA_MTU = 4;
    static final int IFLA_OPERSTATE = 16;
    static final int IFF_UP = 0x1;
    static final int IFF_RUNNING = 0x40;
    /** RFC 2863's "down" and "lower layer down": the link cannot carry frames whatever its flags say. */
    private static final int IF_OPER_DOWN = 2;
    private static final int IF_OPER_LOWERLAYERDOWN = 5;
    /** Interface names are at most 15 bytes (IFNAMSIZ less its terminating zero). */
    static final int NAME_BYTES = 15;
    static final int NO_MTU = -1;

    /** One interface as a notification describes it. */
    record Link(boolean deleted, int index, String name, int flags, int mtu, int operState) {
        /** Administratively up and with a carrier (IFF_RUNNING): frames can cross. */
        boolean carries() {
            return !deleted && (flags & IFF_UP) != 0 && (flags & IFF_RUNNING) != 0
                && operState != IF_OPER_DOWN && operState != IF_OPER_LOWERLAYERDOWN;
        }
    }

    /** Takes each link a batch describes. */
    interface Listener {
        void link(Link link);
    }

    private LinkMessages() {
    }

    /**
     * Hands every link message in the {@code length} bytes at {@code offset} to {@code listener}, in order; other messages
     * are passed over. Returns true when the batch held the end of a dump (NLMSG_DONE).
     */
    static boolean read(final DirectBuffer buffer, final int offset, final int length, final Listener listener) {
        final int end = offset + Math.max(0, Math.min(length, buffer.capacity() - offset));
        int at = offset;
        boolean done = false;
        while (at >= offset && end - at >= NLMSG_HEADER_BYTES) {
            final int messageLength = buffer.getInt(at);
            if (messageLength < NLMSG_HEADER_BYTES || messageLength > end - at) {
                break;
            }
            final int type = buffer.getShort(at + 4) & 0xFFFF;
            if (type == NLMSG_DONE) {
                done = true;
            } else if ((type == RTM_NEWLINK || type == RTM_DELLINK) && messageLength >= NLMSG_HEADER_BYTES + IFINFOMSG_BYTES) {
                link(buffer, at, messageLength, type == RTM_DELLINK, listener);
            }
            at += align(messageLength);
        }
        return done;
    }

    private static void link(final DirectBuffer buffer, final int message, final int messageLength, final boolean deleted,
        final Listener listener) {
        final int info = message + NLMSG_HEADER_BYTES;
        final int index = buffer.getInt(info + 4);
        final int flags = buffer.getInt(info + 8);
        final int end = message + messageLength;
        String name = null;
        int mtu = NO_MTU;
        int operState = 0;
        int at = info + IFINFOMSG_BYTES;
        while (end - at >= 4) {
            final int attributeLength = buffer.getShort(at) & 0xFFFF;
            if (attributeLength < 4 || attributeLength > end - at) {
                break;
            }
            final int type = buffer.getShort(at + 2) & 0x3FFF;
            final int value = at + 4;
            final int valueLength = attributeLength - 4;
            if (type == IFLA_IFNAME) {
                name = name(buffer, value, valueLength);
            } else if (type == IFLA_MTU && valueLength >= 4) {
                mtu = buffer.getInt(value);
            } else if (type == IFLA_OPERSTATE && valueLength >= 1) {
                operState = buffer.getByte(value) & 0xFF;
            }
            at += align(attributeLength);
        }
        if (name != null) {
            listener.link(new Link(deleted, index, name, flags, mtu, operState));
        }
    }

    /** The name up to its terminating zero; null when it is empty or longer than an interface name can be. */
    private static String name(final DirectBuffer buffer, final int value, final int valueLength) {
        int length = 0;
        while (length < valueLength && buffer.getByte(value + length) != 0) {
            length++;
        }
        if (length == 0 || length > NAME_BYTES) {
            return null;
        }
        final byte[] bytes = new byte[length];
        buffer.getBytes(value, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Netlink's alignment of messages and attributes: 4 bytes. */
    private static int align(final int length) {
        return (length + 3) & ~3;
    }
}
