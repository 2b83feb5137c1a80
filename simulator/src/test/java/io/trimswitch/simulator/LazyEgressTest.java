package io.trimswitch.simulator;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.switching.capture.FrameCapture;
import io.trimswitch.switching.run.RunOutcome;
import io.trimswitch.switching.report.ReportBuilder;
import io.trimswitch.switching.report.ReportJson;
import org.agrona.DirectBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Open-loop runs end a port's transmissions when the port is next looked at, not by an event each; a
 * capture makes the switch end them by event, so both ways can be compared on the same run.
 */
class LazyEgressTest {
    /** Watches nothing, but its presence makes every transmission end by its own event. */
    private static final class CountingCapture implements FrameCapture {
        long sent;

        @Override
        public void received(final int port, final long picos, final DirectBuffer buffer, final int offset, final int length) {
        }

        @Override
        public void sent(final int port, final long picos, final DirectBuffer buffer, final int offset, final int length) {
            sent++;
        }

        @Override
        public void close() {
        }
    }

    @ParameterizedTest(name = "{0} under {1}, return to sender {2}, {3} µs")
    @CsvSource({
        "shift, tofino, false, 0",
        "shift, dod, false, 0",
        "shift, ideal, false, 0",
        "shift, mod, false, 0",
        "incast:64->1, tofino, true, 0",
        "incast:64->4, dod, true, 0",
        "mod16:40, tofino, false, 0",
        "'pairs:0->1,16->1,32->1,48->1,2->3', tofino, false, 0",
        "shift, tofino, false, 15",
        "shift, dod, false, 15",
    })
    void endingTransmissionsLazilyReportsExactlyWhatEndingThemByEventDoes(
        final String pattern, final String mechanism, final boolean returnToSender, final int durationUs) {
        Settings settings = Settings.DEFAULTS;
        settings = settings.withTransport(x -> x.withKind(Settings.TransportKind.OPEN_LOOP));
        settings = settings.withWorkload(x -> x.withPattern(pattern).withPackets(200));
        settings = settings.withMechanism(Mechanism.parse(mechanism));
        settings = settings.withTrim(x -> x.withReturnToSender(returnToSender));
        if (durationUs > 0) {
            // Cut short: what is still in service at the end must be counted the same way.
            settings = settings.withWorkload(x -> x.withDurationUs(durationUs));
        }
        final VirtualTimeSwitch lazy = new VirtualTimeSwitch(settings.validate());
        final String lazyReport = ReportJson.toJson(ReportBuilder.build(lazy.run()));

        final VirtualTimeSwitch byEvent = new VirtualTimeSwitch(settings.validate());
        final CountingCapture capture = new CountingCapture();
        byEvent.capture(capture);
        final RunOutcome outcome = byEvent.run();
        final String eventReport = ReportJson.toJson(ReportBuilder.build(outcome));

        assertTrue(capture.sent > 0, "the capture saw the run");
        if (durationUs > 0) {
            assertTrue(outcome.inFlightAtEnd() > 0, "the run ends with packets inside");
        }
        assertEquals(eventReport, lazyReport);
    }
}
