package io.trimswitch.live.port;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The switch names a port's address as a user would type it, not as Java prints one. */
class SocketAddressesTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "127.0.0.1     | 47900 | 127.0.0.1:47900",
        "0.0.0.0       | 4790  | 0.0.0.0:4790",
        "::            | 4790  | [::]:4790",
        "::1           | 4790  | [::1]:4790",
        "fe80:0:0:0:0:0:0:1 | 9 | [fe80::1]:9",
        "2001:db8:0:1:0:0:0:1 | 9 | [2001:db8:0:1::1]:9",
        "2001:db8:0:0:1:0:0:1 | 9 | [2001:db8::1:0:0:1]:9"})
    void anAddressReadsAsItIsTyped(final String address, final int port, final String expected) throws UnknownHostException {
        assertEquals(expected, SocketAddresses.text(new InetSocketAddress(InetAddress.getByName(address), port)));
    }
}
