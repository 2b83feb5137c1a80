package io.trimswitch.live.port;

import java.net.Inet6Address;
import java.net.InetSocketAddress;

/** A socket address as a user types it: 127.0.0.1:4790, [::]:4790, [fe80::1]:4790 (not Java's /127.0.0.1:4790). */
public final class SocketAddresses {
    private SocketAddresses() {
    }

    public static String text(final InetSocketAddress address) {
        if (address.getAddress() == null) {
            return address.getHostString() + ":" + address.getPort();
        }
        if (address.getAddress() instanceof Inet6Address six) {
            return "[" + compressed(six) + "]:" + address.getPort();
        }
        return address.getAddress().getHostAddress() + ":" + address.getPort();
    }

    /** RFC 5952's form: lower-case groups without leading zeros, the longest run of two or more zero groups as "::". */
    static String compressed(final Inet6Address address) {
        final byte[] bytes = address.getAddress();
        final int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = (bytes[2 * i] & 0xff) << 8 | bytes[2 * i + 1] & 0xff;
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; i++) {
            int length = 0;
            while (i + length < 8 && groups[i + length] == 0) {
                length++;
            }
            if (length > bestLength) {
                bestStart = i;
                bestLength = length;
            }
        }
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                text.append("::");
                i += bestLength - 1;
                continue;
            }
            if (text.length() > 0 && text.charAt(text.length() - 1) != ':') {
                text.append(':');
            }
            text.append(Integer.toHexString(groups[i]));
        }
        final String scope = address.getScopeId() != 0 ? "%" + address.getScopeId() : "";
        return text + scope;
    }
}
