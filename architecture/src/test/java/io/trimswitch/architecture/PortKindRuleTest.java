package io.trimswitch.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import io.trimswitch.interfaces.afpacket.AfPacket;
import io.trimswitch.interfaces.afxdp.AfXdp;
import io.trimswitch.live.udp.Udp;
import io.trimswitch.sockets.KernelSocketDrops;
import io.trimswitch.realtime.generated.Generated;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rule that keeps a port kind in its package ({@link LayeringTest}) fails on a class planted outside that names it. */
class PortKindRuleTest {
    private final JavaClasses planted = new ClassFileImporter().importClasses(PlantedKindUser.class, AfXdp.class, AfPacket.class);

    @Test
    void theKindsArePackagesOfTheirOwn() {
        assertEquals(List.of("io.trimswitch.interfaces.afpacket", "io.trimswitch.interfaces.afxdp"), LayeringTest.portKindPackages(planted));
    }

    @Test
    void aClassOutsideTheAfXdpPackageThatNamesItsClassesIsAViolation() {
        final EvaluationResult result = LayeringTest.portKindStaysInItsPackage("io.trimswitch.interfaces.afxdp").evaluate(planted);
        assertTrue(result.hasViolation(), "the planted class is caught");
        assertTrue(result.getFailureReport().toString().contains(PlantedKindUser.class.getName()), result.getFailureReport().toString());
    }

    @Test
    void aClassOutsideTheUdpKindsPackageThatNamesItsRegistrationIsAViolation() {
        final JavaClasses kinds = new ClassFileImporter().importClasses(PlantedUdpUser.class, Udp.class, Generated.class);
        assertEquals(List.of("io.trimswitch.live.udp", "io.trimswitch.realtime.generated"), LayeringTest.portKindPackages(kinds));
        final EvaluationResult result = LayeringTest.portKindStaysInItsPackage("io.trimswitch.live.udp").evaluate(kinds);
        assertTrue(result.getFailureReport().toString().contains(PlantedUdpUser.class.getName()), result.getFailureReport().toString());
        assertFalse(LayeringTest.portKindStaysInItsPackage("io.trimswitch.realtime.generated").evaluate(kinds).hasViolation());
    }

    @Test
    void aClassOutsideTheUdpKindsPackageThatReachesItsSocketsIsAViolation() {
        final JavaClasses classes = new ClassFileImporter().importClasses(PlantedSocketUser.class, KernelSocketDrops.class, Udp.class);
        final EvaluationResult result = LayeringTest.udpSocketsStayWithTheirKind().evaluate(classes);
        assertTrue(result.getFailureReport().toString().contains(PlantedSocketUser.class.getName()), result.getFailureReport().toString());
        assertFalse(result.getFailureReport().toString().contains(Udp.class.getName() + "."), "the kind itself may: " + result.getFailureReport());
    }

    @Test
    void aKindThatNothingOutsideNamesPasses() {
        assertFalse(LayeringTest.portKindStaysInItsPackage("io.trimswitch.interfaces.afpacket").evaluate(planted).hasViolation());
    }
}
