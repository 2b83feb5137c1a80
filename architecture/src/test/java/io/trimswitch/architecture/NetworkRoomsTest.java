package io.trimswitch.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import io.trimswitch.network.NetworkSettings;
import io.trimswitch.network.htsim.HtsimTopology;
import io.trimswitch.network.run.NetworkRun;
import io.trimswitch.network.topology.FatTree;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rooms of {@code network}: the topologies with their forwarding and spraying ({@code topology}) name no file
 * format, so a network is built the same whether a settings file or an htsim {@code .topo} file describes it; the
 * htsim files ({@code htsim}) are read without the run; the settings and the report at the root name no room above.
 */
class NetworkRoomsTest {
    static final String ROOT = "io.trimswitch.network";
    static final String TOPOLOGIES = ROOT + ".topology..";
    static final String FILES = ROOT + ".htsim..";
    static final String RUN = ROOT + ".run..";

    private static final Path CLASSES = Path.of("..", "network", "target", "classes").toAbsolutePath().normalize();

    /** Classes of {@code topologies} name no class of a file format nor of the run. */
    static ArchRule topologiesNameNoFileFormat(final String topologies) {
        return noClasses().that().resideInAPackage(topologies).should().dependOnClassesThat().resideInAnyPackage(FILES, RUN)
            .because("a topology is built alike from a settings file or an htsim file, which is read apart from it");
    }

    static ArchRule filesNameNoRun() {
        return noClasses().that().resideInAPackage(FILES).should().dependOnClassesThat().resideInAPackage(RUN)
            .because("an htsim file is read and written whatever runs the experiment it describes");
    }

    static ArchRule theRootNamesNoRoom() {
        return noClasses().that().resideInAPackage(ROOT).should().dependOnClassesThat().resideInAnyPackage(TOPOLOGIES, FILES, RUN)
            .because("a network's settings and report are what every room reads");
    }

    private static JavaClasses network() {
        assertTrue(Files.isDirectory(CLASSES), "network is not compiled: " + CLASSES + " is missing");
        return new ClassFileImporter().importPath(CLASSES);
    }

    @Test
    void topologiesNameNoFileFormatNorRun() {
        final JavaClasses classes = network();
        assertTrue(classes.contain(FatTree.class) && classes.contain(HtsimTopology.class) && classes.contain(NetworkRun.class),
            "every room is imported");
        topologiesNameNoFileFormat(TOPOLOGIES).check(classes);
    }

    @Test
    void htsimFilesNameNoRun() {
        filesNameNoRun().check(network());
    }

    @Test
    void settingsAndReportNameNoRoomAboveThem() {
        final JavaClasses classes = network();
        assertTrue(classes.contain(NetworkSettings.class), "the root is imported");
        theRootNamesNoRoom().check(classes);
    }

    @Test
    void aTopologyClassThatReadsAFileIsAViolation() {
        final JavaClasses planted = new ClassFileImporter().importClasses(PlantedFormatReader.class, HtsimTopology.class, FatTree.class);
        final String report = topologiesNameNoFileFormat("io.trimswitch.architecture").evaluate(planted).getFailureReport().toString();
        assertTrue(report.contains(PlantedFormatReader.class.getName()) && report.contains(HtsimTopology.class.getName()), report);
        assertFalse(topologiesNameNoFileFormat(TOPOLOGIES).evaluate(planted).hasViolation(), "the rule is about the topologies' package alone");
    }
}
