package io.trimswitch.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.trimswitch.simulator.Transports;
import io.trimswitch.ndp.NdpSender;
import io.trimswitch.ndp.NdpTransport;
import io.trimswitch.uet.UetTransport;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A transport is a plug-in: the module that registers one (in its META-INF/services) is its folder, and no class
 * outside it names its classes; the rest of the house reaches it through {@code io.trimswitch.simulator.Transport}
 * and its name. A transport's live hosts, which run its state machines on sockets rather than in the simulator, may name
 * them too ({@code hosts}, NDP's). The rule is shown failing on a class planted outside that names one.
 */
class TransportRuleTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String REGISTRATION = "src/main/resources/META-INF/services/io.trimswitch.simulator.Transport";

    /** The modules that register a transport, by directory. */
    static List<String> transportModules() throws IOException {
        try (Stream<Path> entries = Files.list(ROOT)) {
            return entries.filter(dir -> Files.isRegularFile(dir.resolve(REGISTRATION))).map(dir -> dir.getFileName().toString()).sorted().toList();
        }
    }

    /** The live hosts of a transport, by its module: they run its state machines on the host's clock and sockets. */
    static final Map<String, String> LIVE_HOSTS = Map.of("ndp", "io.trimswitch.hosts..");

    static ArchRule transportStaysInItsFolder(final String module) {
        final String own = "io.trimswitch." + module.replace("-", "") + "..";
        final String[] allowed = LIVE_HOSTS.containsKey(module) ? new String[] {own, LIVE_HOSTS.get(module)} : new String[] {own};
        return noClasses().that().resideOutsideOfPackages(allowed).should().dependOnClassesThat().resideInAPackage(own)
            .because(module + " is a transport: the rest reaches it only through io.trimswitch.simulator.Transport and its name");
    }

    @Test
    void theTransportsAreTheModulesThatRegisterOne() throws IOException {
        assertTrue(transportModules().contains("uet"), "uet registers its transport: " + transportModules());
        assertTrue(transportModules().contains("ndp"), "ndp registers its transport: " + transportModules());
        assertFalse(transportModules().contains("simulator"), "the contract's module registers none");
    }

    @Test
    void nothingOutsideATransportsFolderNamesItsClasses() throws IOException {
        final List<Path> classDirectories = new ArrayList<>();
        for (final String module : LayeringTest.MAY_USE.keySet()) {
            classDirectories.add(ROOT.resolve(module).resolve("target/classes"));
        }
        final JavaClasses all = new ClassFileImporter().importPaths(classDirectories);
        for (final String module : transportModules()) {
            transportStaysInItsFolder(module).check(all);
        }
    }

    @Test
    void aClassOutsideUetThatNamesItsClassesIsAViolation() {
        final JavaClasses planted = new ClassFileImporter().importClasses(PlantedTransportUser.class, UetTransport.class);
        final EvaluationResult result = transportStaysInItsFolder("uet").evaluate(planted);
        assertTrue(result.hasViolation(), "the planted class is caught");
        assertTrue(result.getFailureReport().toString().contains(PlantedTransportUser.class.getName()), result.getFailureReport().toString());
    }

    @Test
    void theRegistryThatFindsItByNamePasses() {
        final JavaClasses registry = new ClassFileImporter().importClasses(Transports.class, UetTransport.class);
        assertFalse(transportStaysInItsFolder("uet").evaluate(registry).hasViolation());
    }

    @Test
    void aClassOutsideNdpThatNamesItsStateMachinesIsAViolation() {
        final JavaClasses planted = new ClassFileImporter().importClasses(PlantedNdpUser.class, NdpSender.class);
        final EvaluationResult result = transportStaysInItsFolder("ndp").evaluate(planted);
        assertTrue(result.hasViolation(), "the planted class is caught");
        assertTrue(result.getFailureReport().toString().contains(PlantedNdpUser.class.getName()), result.getFailureReport().toString());
    }

    @Test
    void ndpsLiveHostsAndItsRegistryPass() throws IOException {
        final JavaClasses live = new ClassFileImporter().importPaths(ROOT.resolve("hosts/target/classes"), ROOT.resolve("ndp/target/classes"),
            ROOT.resolve("simulator/target/classes"));
        assertFalse(transportStaysInItsFolder("ndp").evaluate(live).hasViolation(), "the live hosts run NDP's state machines");
        final JavaClasses registry = new ClassFileImporter().importClasses(Transports.class, NdpTransport.class);
        assertFalse(transportStaysInItsFolder("ndp").evaluate(registry).hasViolation());
    }
}
