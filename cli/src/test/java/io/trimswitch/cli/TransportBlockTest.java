package io.trimswitch.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.trimswitch.cli.Cli.trimswitch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A transport's own settings block in a settings file ({@code transport.settings}): read by the transport, options over it. */
class TransportBlockTest {
    private static final String[] SMALL = {"--pattern", "incast:4->1", "--packets", "100", "--mechanism", "tofino"};

    @TempDir
    Path dir;

    private Path file(final String transport) throws IOException {
        return Files.writeString(dir.resolve("settings.yaml"), "transport:\n" + transport);
    }

    private Cli.Result scenario(final Path config, final String... more) {
        final String[] args = new String[3 + SMALL.length + more.length];
        args[0] = "scenario";
        args[1] = "--config";
        args[2] = config.toString();
        System.arraycopy(SMALL, 0, args, 3, SMALL.length);
        System.arraycopy(more, 0, args, 3 + SMALL.length, more.length);
        return trimswitch(args);
    }

    private static Cli.Result options(final String... more) {
        final String[] args = new String[1 + SMALL.length + more.length];
        args[0] = "scenario";
        System.arraycopy(SMALL, 0, args, 1, SMALL.length);
        System.arraycopy(more, 0, args, 1 + SMALL.length, more.length);
        return trimswitch(args);
    }

    @Test
    void uetsBlockInTheFileRunsAsItsOptionsDo() throws IOException {
        final Cli.Result fromFile = scenario(file("  kind: uet\n  settings: {cc: both, targetDelayUs: 8, ecn: [10, 40]}\n"));
        final Cli.Result fromOptions = options("--transport", "uet", "--cc", "both", "--target-delay-us", "8", "--ecn", "10", "40");
        assertEquals(0, fromFile.exit(), fromFile.err());
        assertEquals(fromOptions.out(), fromFile.out());
        // and the block is read at all: without it, the run is another one.
        assertNotEquals(options("--transport", "uet").out(), fromFile.out());
    }

    @Test
    void anOptionGivenTakesThePlaceOfTheFilesValue() throws IOException {
        final Cli.Result overridden = scenario(file("  kind: uet\n  settings: {cc: both, targetDelayUs: 8}\n"), "--cc", "sender");
        assertEquals(0, overridden.exit(), overridden.err());
        assertEquals(options("--transport", "uet", "--cc", "sender", "--target-delay-us", "8").out(), overridden.out());
    }

    @Test
    void anUnknownKeyOrAWrongValueIsOneLineAndExitTwo() throws IOException {
        assertRefused(scenario(file("  kind: uet\n  settings: {loadBalancr: mixed}\n")), "uet.loadBalancr is not a UET setting; they are loadBalancer");
        assertRefused(scenario(file("  kind: uet\n  settings: {targetDelayUs: soon}\n")), "uet.targetDelayUs must be a number, got soon");
        assertRefused(scenario(file("  kind: uet\n  settings: {ackBytes: 1.5}\n")), "uet.ackBytes must be a whole number, got 1.5");
        assertRefused(scenario(file("  kind: uet\n  settings: {cc: }\n")), "'transport.settings.cc' may not be null (line 3)");
        assertRefused(scenario(file("  kind: ndp\n  settings: {cc: both}\n")), "ndp has no settings of its own");
        assertRefused(scenario(file("  kind: uet\n  settings: {ecn: 10}\n")), "uet.ecn (--ecn) takes LO HI once, got 0 pairs");
        assertRefused(scenario(file("  kind: open-loop\n  settings: {cc: both}\n")), "transport.settings is a transport's own block: open-loop senders have none");
    }

    private static void assertRefused(final Cli.Result result, final String start) {
        assertEquals(2, result.exit(), result.out() + result.err());
        assertEquals(1, result.err().lines().count(), result.err());
        assertTrue(result.err().contains(start), result.err());
    }
}
