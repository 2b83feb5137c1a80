package io.trimswitch.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import io.trimswitch.interfaces.CallerFiles;
import io.trimswitch.interfaces.LinkWatcher;
import io.trimswitch.ndp.NdpReceiver;
import io.trimswitch.ndp.NdpSender;
import io.trimswitch.ndp.PullPacer;
import io.trimswitch.ndp.live.NdpReceivingHost;
import io.trimswitch.ndp.live.NdpSendingHost;
import io.trimswitch.sockets.MetricsEndpoint;
import io.trimswitch.sockets.VxlanPorts;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rule that keeps the modules below {@code realtime} free of the host's clock and of threads ({@link LayeringTest})
 * fails on a class planted that reads one and starts the other, and on the classes it names as exceptions once it no
 * longer names them.
 */
class ClockRuleTest {
    @Test
    void aPlantedClassThatReadsTheClockAndStartsAThreadIsAViolation() {
        final JavaClasses planted = new ClassFileImporter().importClasses(PlantedClockReader.class);
        final EvaluationResult result = LayeringTest.readNoHostClockAndStartNoThread(Set.of(), "io.trimswitch.architecture..").evaluate(planted);
        final String report = result.getFailureReport().toString();
        assertTrue(report.contains("System.nanoTime()"), report);
        assertTrue(report.contains("Thread.ofPlatform()"), report);
        assertTrue(report.contains("ForkJoinPool.<init>(int)"), report);
    }

    @Test
    void theNamedExceptionsReadTheClockOrStartAThreadAndNoOtherClassOfTheirModulesDoes() {
        final JavaClasses classes = new ClassFileImporter().importClasses(CallerFiles.class, MetricsEndpoint.class, LinkWatcher.class, VxlanPorts.class);
        final String[] modules = {"io.trimswitch.interfaces..", "io.trimswitch.sockets.."};
        final String report = LayeringTest.readNoHostClockAndStartNoThread(Set.of(), modules).evaluate(classes).getFailureReport().toString();
        assertTrue(report.contains(CallerFiles.class.getName()) && report.contains(MetricsEndpoint.class.getName()), report);
        assertFalse(report.contains(LinkWatcher.class.getName() + ".") || report.contains(VxlanPorts.class.getName() + "."), report);
        assertFalse(LayeringTest.readNoHostClockAndStartNoThread(LayeringTest.CLOCK_OR_THREAD_OF_THEIR_OWN.keySet(), modules).evaluate(classes)
            .hasViolation());
    }

    @Test
    void ndpsLiveHostsReadTheClockInAModuleOfTheirOwnBesideTheClockFreeOne() {
        final JavaClasses ndp = new ClassFileImporter().importClasses(NdpSendingHost.class, NdpReceivingHost.class, NdpSender.class,
            NdpReceiver.class, PullPacer.class);
        // By package alone the live hosts would be in the clock-free module; by folder they are ndp/live.
        final String report = LayeringTest.readNoHostClockAndStartNoThread(Set.of(), "io.trimswitch.ndp..").evaluate(ndp).getFailureReport().toString();
        assertTrue(report.contains(NdpSendingHost.class.getName()) && report.contains(NdpReceivingHost.class.getName()), report);
        assertTrue(LayeringTest.inModule("ndp").test(ndp.get(NdpSender.class)) && !LayeringTest.inModule("ndp").test(ndp.get(NdpSendingHost.class)));
        assertFalse(LayeringTest.readNoHostClockAndStartNoThread(Set.of(), LayeringTest.inAnyModule(List.of("ndp"))).evaluate(ndp).hasViolation());
    }
}
