package io.trimswitch.cli;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Command lines a user can get wrong: each is refused at once with exit code 2 and one line that says
 * what is wrong, before any run, never with a stack trace, a hang or a run that silently does something else.
 * {@code DIR} stands for a folder of the test's own, {@code FILE} for a file in it, {@code ''} for an empty argument.
 */
class HostileCommandLineTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "scenario --mechanism ,                               | --mechanism ',': an empty item",
        "scenario --no-ideal --mechanism tofino --mechanism , | --mechanism ',': an empty item",
        "scenario --mechanism tofino,                         | --mechanism 'tofino,': an empty item",
        "scenario --mechanism ,tofino                         | --mechanism ',tofino': an empty item",
        "scenario --mechanism tofino,,dod                     | --mechanism 'tofino,,dod': an empty item",
        "scenario --mechanism=tofino,                         | --mechanism 'tofino,': an empty item",
        "scenario --mechanism ''                              | --mechanism '': an empty item",
        "scenario --mechanism=                                | --mechanism '': an empty item",
        "scenario --mechanism                                 | Missing required parameter for option '--mechanism'",
        "scenario --mechanism --no-ideal                      | Missing required parameter for option '--mechanism'",
        "evaluate --only ,                                    | --only ',': an empty item",
        "evaluate --only summary,                             | --only 'summary,': an empty item",
        "evaluate --only ,summary                             | --only ',summary': an empty item",
        "evaluate --only ''                                   | --only '': an empty item",
        "scenario --pattern pairs:0->1,,2->1                  | an empty pair",
        "scenario --pattern pairs:,                           | an empty pair",
        "scenario --pattern pairs:0->1,                       | an empty pair",
        "scenario --pessimistic-rate NaN                      | --pessimistic-rate must be",
        "scenario --halftimistic-rate NaN                     | --halftimistic-rate must be",
        "scenario --packet-bytes 0                            | --packet-bytes must be",
        "scenario --packet-bytes 9019                         | --packet-bytes must be 50..9018, got 9019 (workload.packetBytes)",
        "scenario --packets 2147483647                        | --packets must be 1..1000000",
        "scenario --packets -5                                | --packets must be 1..1000000, got -5 (workload.packets)",
        "scenario --transport tcp                             | --transport must be one of open-loop, ndp, uet, got 'tcp' (transport.kind)",
        "scenario --packets 12345678901234567890              | --packets': '12345678901234567890' is too large (max 2147483647)",
        "scenario --packets -12345678901234567890             | --packets': '-12345678901234567890' is too small (min -2147483648)",
        "scenario --packets ١                                 | --packets': '١' is not a whole number",
        "evaluate --only summary --out /proc/trimswitch-none  | --out /proc/trimswitch-none: cannot write there (no such file or directory)",
        "scenario --packets 1 --pcap-dir /proc/trimswitch-none | /proc/trimswitch-none",
        "scenario --data-queue 100000000                      | --data-queue must be 1..1048576",
        "scenario --clock real --dilation 1e300               | --dilation must be 1..1000000",
        "scenario --json DIR/missing/report.json              | its folder",
        "scenario --json DIR                                  | a directory; name a file",
        "replay --in DIR                                      | a directory, not a capture",
        "replay --in 0=DIR/none.pcap                          | no such file",
        "replay --in 0=                                       | --in '0=': names no capture file",
        "replay --in ''                                       | --in '': names no capture file",
        "replay --in 0=FILE --out FILE                        | is also an input",
        "gen receive --timeout-s NaN                          | --timeout-s must be above 0",
        "gen receive --timeout-s 0                            | --timeout-s must be above 0",
        "gen receive --idle-s -1                              | --idle-s must be above 0",
        "gen receive --expect -1                              | --expect must be at least 1",
        "gen receive --bind no.such.host.invalid:666          | unknown host",
        "gen receive --bind 192.0.2.77:666                    | cannot bind",
        "gen send --to no.such.host.invalid:666               | unknown host",
        "gen send --to 127.0.0.1:666 --rate NaN               | --rate must be above 0",
        "gen send --to 127.0.0.1:666 --flow -1                | --flow must be 0..2147483647, got -1",
        "scenario --packets 1 --pcap-dir FILE                 | a file, not a directory",
        "replay --in 0=FILE --out-dir FILE                    | a file, not a directory",
        "scenario --packets 1 --pcap-dir FILE/captures        | cannot be made: ",
        "evaluate --out FILE --only summary                   | a file, not a directory",
        "scenario --packets 1 --pcap-dir ''                   | --pcap-dir '': names no directory",
        "scenario --flow-sizes ''                             | --flow-sizes must name a CSV file of flow sizes, got ''",
        "evaluate --only summary --out ''                     | --out '': names no directory",
        "replay --in 0=FILE --out-dir ''                      | --out-dir '': names no directory",
        "run --config FILE --duration-s 1e10                  | --duration-s must be above 0 and at most",
        "run --config FILE --duration-s Infinity              | --duration-s must be above 0 and at most",
        "run --config FILE --poll-after-traffic-us -1         | --poll-after-traffic-us must be 0..1000000, got -1 (realtime.pollAfterTrafficUs)",
        "run --config FILE --poll-after-traffic-us 1000001    | --poll-after-traffic-us must be 0..1000000, got 1000001",
        "run --config FILE --poll-after-traffic-us 99999999999 | --poll-after-traffic-us': '99999999999' is too large",
        "run --config FILE --poll-after-traffic-us NaN        | --poll-after-traffic-us': 'NaN' is not a whole number",
        "run --config FILE --poll-after-traffic-us 1.5        | --poll-after-traffic-us': '1.5' is not a whole number",
        "run --config FILE --poll-after-traffic-us ''         | --poll-after-traffic-us': '' is not a whole number",
        "run --config FILE --metrics [:9464                   | must be host:port or [IPv6]:port",
        "run --config FILE --metrics 0:9464                   | means every interface",
        "stats --metrics 127.0.0.1:1                          | --metrics is gone: stats reads the switch",
        "stats --counters /nonexistent/switch.counters        | counters at /nonexistent/switch.counters (is",
        "stats --watch NaN                                    | --watch must be"})
    void isRefusedInOneLine(final String commandLine, final String expected) throws IOException {
        final Path file = dir.resolve("input");
        Files.writeString(file, "ports:\n  - bind: 127.0.0.1:0\n    remote: 127.0.0.1:9\n");
        final String[] args = commandLine.strip().replace("DIR", dir.toString()).replace("FILE", file.toString()).split("\\s+");
        for (int i = 0; i < args.length; i++) {
            // '' stands for an empty argument, which an unset shell variable gives.
            args[i] = args[i].equals("''") ? "" : args[i];
        }
        final Cli.Result result = Cli.trimswitch(args);
        assertEquals(TrimswitchCommand.EXIT_USAGE, result.exit(), commandLine + "\n" + result.out() + result.err());
        assertEquals(1, result.err().strip().lines().count(), "one line: " + result.err());
        assertTrue(result.err().contains(expected), "expected '" + expected + "' in: " + result.err());
        assertTrue(!result.err().contains("Exception"), "no exception's name: " + result.err());
    }
}
