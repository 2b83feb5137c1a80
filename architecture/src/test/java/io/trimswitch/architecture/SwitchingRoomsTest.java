package io.trimswitch.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.switching.report.RunReport;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rooms of {@code switching}: the switch's assembly (its root package and {@code mechanism}) knows nothing of the
 * runs it takes part in (traffic sources, the recorder, the run, its report) nor of the captures written beside them,
 * so either clock, a live switch or a test can assemble a switch alone. Captures know none of those rooms either.
 */
class SwitchingRoomsTest {
    static final String ASSEMBLY = "io.trimswitch.switching";
    /** What a run adds around the assembled switch, each in a package of its own. */
    private static final String[] AROUND_THE_ASSEMBLY = {"io.trimswitch.switching.source..", "io.trimswitch.switching.record..",
        "io.trimswitch.switching.run..", "io.trimswitch.switching.report..", "io.trimswitch.switching.capture.."};

    private static final Path CLASSES = Path.of("..", "switching", "target", "classes").toAbsolutePath().normalize();

    /** Classes of {@code assembly} (that package and {@code mechanism} below it) name no class of a run's rooms or captures. */
    static ArchRule theAssemblyStandsAlone(final String assembly) {
        return noClasses().that().resideInAnyPackage(assembly, assembly + ".mechanism..").should().dependOnClassesThat()
            .resideInAnyPackage(AROUND_THE_ASSEMBLY)
            .because("the switch is assembled apart from the runs, reports and captures around it");
    }

    static ArchRule capturesStandAlone() {
        final String captures = "io.trimswitch.switching.capture..";
        return noClasses().that().resideInAPackage(captures).should().dependOnClassesThat(resideInAPackage("io.trimswitch.switching..")
                .and(DescribedPredicate.not(resideInAPackage(captures))))
            .because("a capture writes frames to a file, whatever run hands them over");
    }

    private static JavaClasses switching() {
        assertTrue(Files.isDirectory(CLASSES), "switching is not compiled: " + CLASSES + " is missing");
        return new ClassFileImporter().importPath(CLASSES);
    }

    @Test
    void theAssemblyNamesNoSourceRecorderRunReportOrCapture() {
        final JavaClasses classes = switching();
        assertTrue(classes.contain(AssembledSwitch.class) && classes.contain(RunReport.class), "both sides are imported");
        theAssemblyStandsAlone(ASSEMBLY).check(classes);
    }

    @Test
    void capturesNameNothingElseOfTheSwitch() {
        capturesStandAlone().check(switching());
    }

    @Test
    void anAssemblyClassThatNamesARunsReportIsAViolation() {
        final JavaClasses planted = new ClassFileImporter().importClasses(PlantedReportUser.class, RunReport.class, AssembledSwitch.class);
        final String report = theAssemblyStandsAlone("io.trimswitch.architecture").evaluate(planted).getFailureReport().toString();
        assertTrue(report.contains(PlantedReportUser.class.getName()) && report.contains(RunReport.class.getName()), report);
        assertFalse(theAssemblyStandsAlone(ASSEMBLY).evaluate(planted).hasViolation(), "the rule is about the assembly's package alone");
    }
}
