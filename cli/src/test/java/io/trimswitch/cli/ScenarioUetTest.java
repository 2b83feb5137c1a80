package io.trimswitch.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

import static io.trimswitch.cli.Cli.trimswitch;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code scenario --transport uet}: Ultra Ethernet hosts on the lone switch's ports, what the report says and what is refused. */
class ScenarioUetTest {
    @TempDir
    Path dir;

    @Test
    void anIncastOfUetFlowsCompletesOnEveryDesignAndEveryHeaderIsSentAgain() throws IOException {
        final Path json = dir.resolve("uet.json");
        final Cli.Result result = trimswitch("scenario", "--transport", "uet", "--pattern", "incast:8->1", "--packets", "200",
            "--mechanism", "tofino,dod,ideal", "--json", json.toString());
        assertEquals(0, result.exit(), result.err());
        assertTrue(result.out().startsWith("incast:8->1: 8 senders into 1 port, UET flows of 200 packets of 1500 B, 64 ports at 100 Gb/s"),
            result.out());
        assertTrue(result.out().contains("flows completed                              8 / 8              8 / 8              8 / 8"), result.out());
        final JsonNode reports = new ObjectMapper().readTree(json.toFile());
        final String[] mechanisms = {"tofino", "dod", "ideal"};
        final long[] headers = {410, 376, 386};
        final long[] sent = {2016, 1982, 1986};
        final long[] resent = {416, 382, 386};
        final double[] lastUs = {261.533, 264.703, 211.624};
        for (int i = 0; i < mechanisms.length; i++) {
            final JsonNode report = reports.get(i);
            assertEquals(mechanisms[i], report.get("mechanism").asText());
            assertEquals("uet", report.get("transport").asText());
            assertEquals("incast:8->1 (uet)", report.get("pattern").asText());
            assertEquals(8, report.get("flowsCompleted").asInt());
            assertTrue(report.get("conservation").asBoolean());
            assertEquals(sent[i], report.get("sent").asLong(), mechanisms[i]);
            assertEquals(headers[i], report.get("deliveredHeader").asLong(), mechanisms[i]);
            long retransmissions = 0;
            double last = 0;
            for (final JsonNode flow : report.get("flows")) {
                retransmissions += flow.get("retransmissions").asLong();
                last = Math.max(last, flow.get("completionNs").asDouble() / 1000);
            }
            // Every header is NACKed and sent again; a copy sent again after a timeout adds to that.
            assertEquals(resent[i], retransmissions, mechanisms[i]);
            assertTrue(retransmissions >= headers[i]);
            assertEquals(lastUs[i], last, 0.001, mechanisms[i]);
        }
    }

    /** A copy sent again after a late ACK can arrive whole beside the first: the table says how many, so whole less those is what the flows hold. */
    @Test
    void theTableCountsDuplicateDeliveriesSoWholeLessDuplicatesIsWhatTheFlowsHold() {
        final Cli.Result result = trimswitch("scenario", "--transport", "uet");
        assertEquals(0, result.exit(), result.err());
        final String[] whole = row(result.out(), "delivered whole");
        final String[] duplicates = row(result.out(), "  of them duplicates");
        assertEquals(3, whole.length, result.out());
        long total = 0;
        for (int i = 0; i < whole.length; i++) {
            assertEquals(64 * 1000, Long.parseLong(whole[i]) - Long.parseLong(duplicates[i]), result.out());
            total += Long.parseLong(duplicates[i]);
        }
        assertTrue(total > 0, "the default UET shift delivers some packets twice: " + result.out());
    }

    private static String[] row(final String table, final String label) {
        return table.lines().filter(line -> line.startsWith(label + "  ")).findFirst().orElseThrow(() -> new AssertionError(label + " in " + table))
            .substring(label.length()).strip().split("\\s+");
    }

    @Test
    void theDefaultShiftOfUetFlowsCompletesUnderEveryMechanism() {
        final Cli.Result result = trimswitch("scenario", "--transport", "uet", "--packets", "300");
        assertEquals(0, result.exit(), result.err());
        assertTrue(result.out().contains("shift: 16 parallel 4:1 incasts, UET flows of 300 packets"), result.out());
        assertTrue(result.out().contains("flows completed                      64 / 64        64 / 64      64 / 64"), result.out());
    }

    @Test
    void aRunStoppedByEndUsCountsAndNamesTheFlowsItLeftUnfinished() {
        final Cli.Result result = trimswitch("scenario", "--transport", "uet", "--pattern", "incast:8->1", "--packets", "200", "--mechanism", "ideal",
            "--end-us", "150");
        assertEquals(0, result.exit(), result.err());
        // Measured: the run to the end finishes its last flow at 211.6 µs; at 150 µs only the flow from port 4 (138.8 µs) has.
        assertTrue(result.out().contains("flows completed                              1 / 8"), result.out());
        assertTrue(result.out().contains("unfinished at 150.0 µs in the ideal run: 7 of 8 flows"), result.out());
        assertTrue(result.out().contains("  1->0  115 of 200 packets arrived whole"), result.out());
        assertFalse(result.out().contains("  4->0"), result.out());
        assertTrue(result.out().contains("conservation                                    ok"), result.out());
    }

    /** Measured: receivers that pull at their link rate share the incast fairly and finish it sooner than NSCC's windows do. */
    @Test
    void receiverDrivenCongestionControlSharesTheIncastFairlyAndFinishesItSooner() {
        final String sender = incast("sender");
        final String receiver = incast("receiver");
        assertArrayEquals(new String[] {"261.5", "264.7", "211.6"}, row(sender, "completion time max (µs)"), sender);
        assertArrayEquals(new String[] {"210.8", "198.6", "198.5"}, row(receiver, "completion time max (µs)"), receiver);
        assertArrayEquals(new String[] {"0.744", "0.489", "0.979"}, row(sender, "Jain fairness"), sender);
        assertArrayEquals(new String[] {"0.999", "0.999", "1.000"}, row(receiver, "Jain fairness"), receiver);
        final String both = incast("both");
        assertArrayEquals(new String[] {"261.4", "215.7", "199.7"}, row(both, "completion time max (µs)"), both);
    }

    private static String incast(final String cc) {
        final Cli.Result result = trimswitch("scenario", "--transport", "uet", "--pattern", "incast:8->1", "--packets", "200",
            "--mechanism", "tofino,dod,ideal", "--cc", cc);
        assertEquals(0, result.exit(), result.err());
        assertTrue(result.out().contains("flows completed                              8 / 8              8 / 8              8 / 8"), result.out());
        assertTrue(result.out().contains("conservation                                    ok                 ok                 ok"), result.out());
        return result.out();
    }

    private void refused(final String expected, final String... args) {
        final String[] command = new String[args.length + 1];
        command[0] = "scenario";
        System.arraycopy(args, 0, command, 1, args.length);
        final Cli.Result result = trimswitch(command);
        assertEquals(TrimswitchCommand.EXIT_USAGE, result.exit(), result.err());
        assertEquals(1, result.err().strip().lines().count(), "one line: " + result.err());
        assertEquals("trimswitch: " + expected, result.err().strip());
    }

    @Test
    void badUetSettingsAreRefusedInOneLineNamingTheOption() {
        refused("--transport must be one of open-loop, ndp, uet, got 'tcp' (transport.kind)", "--transport", "tcp");
        refused("--target-delay-us must be above 0 and at most 10000 µs, got 0.0", "--transport", "uet", "--target-delay-us", "0");
        refused("--initial-window must be 1..65535 packets (a window below one packet never sends), got 0", "--transport", "uet",
            "--initial-window", "0");
        refused("--ecn must be LO HI with 0 <= LO <= HI <= 65535 packets, got 9 3", "--transport", "uet", "--ecn", "9", "3");
        refused("uet.ecn (--ecn) takes LO HI once, got 2 pairs", "--transport", "uet", "--ecn", "1", "2", "--ecn", "3", "4");
        refused("--ack-bytes must be 1..16777216, got 0", "--transport", "uet", "--ack-bytes", "0");
        refused("--rto-us must be above 0 and at most 1000000 µs, got -1.0", "--transport", "uet", "--rto-us", "-1");
        refused("--target-delay-us applies to UET hosts: add --transport uet", "--target-delay-us", "5");
        refused("--ecn applies to UET hosts: add --transport uet", "--transport", "ndp", "--ecn", "1", "2");
        refused("--cc must be one of sender, receiver, both, got 'pull'", "--transport", "uet", "--cc", "pull");
        refused("--cc applies to UET hosts: add --transport uet", "--cc", "receiver");
        refused("--cc applies to UET hosts: add --transport uet", "--transport", "ndp", "--cc", "sender");
        refused("--hosts applies to NDP hosts: UET hosts are one per port", "--transport", "uet", "--hosts", "separate");
        refused("--end-us must be above 0 and at most 8000000 µs (eight seconds of switch time), got 0.0", "--transport", "uet", "--end-us", "0");
        refused("--end-us must be above 0 and at most 8000000 µs (eight seconds of switch time), got NaN", "--end-us", "NaN");
        refused("--end-us applies to NDP and UET hosts: open-loop senders run for --duration-us", "--transport", "open-loop", "--end-us", "5");
        refused("clock real runs open-loop senders; UET end hosts run only with clock virtual (set transport.kind open-loop)",
            "--transport", "uet", "--clock", "real", "--mechanism", "tofino");
    }
}
