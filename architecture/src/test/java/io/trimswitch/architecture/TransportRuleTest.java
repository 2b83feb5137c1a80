package io.trimswitch.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.trimswitch.cli.TrimswitchCommand;
import io.trimswitch.simulator.TransportLiveCommand;
import io.trimswitch.simulator.Transports;
import io.trimswitch.ndp.NdpSender;
import io.trimswitch.ndp.NdpTransport;
import io.trimswitch.ndp.live.NdpLiveCommand;
import io.trimswitch.uet.UetTransport;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A transport is a plug-in: the module that registers one (in its META-INF/services) heads its folder, and no class
 * outside that folder names its classes; the rest of the house reaches it through {@code io.trimswitch.simulator.Transport}
 * and its name (its live command through {@code TransportLiveCommand}). A module in the folder, as NDP's live hosts
 * ({@code ndp/live}) that run its state machines on sockets, is inside, and as unnamed outside as the rest. The rule is
 * shown failing on classes planted outside that name one.
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

    /** Outside the folder's packages (the transport module's and those of the modules in its folder), none names their classes. */
    static ArchRule transportStaysInItsFolder(final String module) {
        final String folder = LayeringTest.packageOf(module) + "..";
        return noClasses().that().resideOutsideOfPackage(folder).should().dependOnClassesThat().resideInAPackage(folder)
            .because(module + " is a transport: the rest reaches its folder only through io.trimswitch.simulator.Transport,"
                + " TransportLiveCommand and their names");
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
    void aClassOutsideNdpsFolderThatNamesItsLiveCommandIsAViolation() {
        final JavaClasses planted = new ClassFileImporter().importClasses(PlantedNdpLiveUser.class, NdpLiveCommand.class);
        final EvaluationResult result = transportStaysInItsFolder("ndp").evaluate(planted);
        assertTrue(result.hasViolation(), "the planted class is caught");
        assertTrue(result.getFailureReport().toString().contains(PlantedNdpLiveUser.class.getName()), result.getFailureReport().toString());
    }

    @Test
    void theToolThatFindsTheLiveCommandByNamePasses() {
        final JavaClasses tool = new ClassFileImporter().importClasses(TrimswitchCommand.class, TransportLiveCommand.class, NdpLiveCommand.class);
        assertTrue(TransportLiveCommand.registered().stream().anyMatch(live -> live.name().equals("host")), "ndp/live registers host");
        assertFalse(transportStaysInItsFolder("ndp").evaluate(tool).hasViolation());
    }

    @Test
    void ndpsLiveHostsInItsFolderAndItsRegistryPass() throws IOException {
        final JavaClasses live = new ClassFileImporter().importPaths(ROOT.resolve("ndp/live/target/classes"), ROOT.resolve("ndp/target/classes"),
            ROOT.resolve("simulator/target/classes"));
        assertTrue(live.stream().anyMatch(type -> type.getPackageName().equals("io.trimswitch.ndp.live")
            && type.getDirectDependenciesFromSelf().stream().anyMatch(d -> d.getTargetClass().getPackageName().equals("io.trimswitch.ndp"))),
            "the live hosts run NDP's state machines");
        assertFalse(transportStaysInItsFolder("ndp").evaluate(live).hasViolation(), "the live hosts are in NDP's folder");
        final JavaClasses registry = new ClassFileImporter().importClasses(Transports.class, NdpTransport.class);
        assertFalse(transportStaysInItsFolder("ndp").evaluate(registry).hasViolation());
    }
}
