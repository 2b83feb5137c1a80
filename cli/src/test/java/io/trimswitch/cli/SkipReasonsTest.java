package io.trimswitch.cli;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A skipped test says what this run lacks, and only that: never "needs root" to a run as root. */
class SkipReasonsTest {
    @Test
    void aMininetTestAsRootNeverSaysItNeedsRoot() throws Exception {
        assertFalse(HostScripts.missing(true).contains("root"), HostScripts.missing(true));
        assertTrue(HostScripts.missing(false).startsWith("root"), HostScripts.missing(false));
    }

    @Test
    void aDocumentedBlockNamesOnlyTheNeedsThisRunDoesNotMeet() {
        final DocumentedCommandsTest.Command block = new DocumentedCommandsTest.Command(Path.of("README.md"), 1, "true", "root long build");
        final boolean root = "root".equals(System.getProperty("user.name"));
        assertEquals(!root, block.whyNot(false).contains("needs root"), block.whyNot(false));
        assertFalse(block.whyNot(true).contains("needs long"), block.whyNot(true));
        assertTrue(block.whyNot(false).contains("needs long") && block.whyNot(true).contains("needs build"), block.whyNot(false));
    }
}
