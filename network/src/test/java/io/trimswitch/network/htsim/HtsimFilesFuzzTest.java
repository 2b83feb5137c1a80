package io.trimswitch.network.htsim;

import io.trimswitch.network.topology.FatTree;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.trimswitch.config.ConfigException;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Any bytes as an htsim topology or connection matrix: a fat tree whose shape holds together, flows within its nodes,
 * or a {@link ConfigException} of one line that names the file; no other exception.
 */
class HtsimFilesFuzzTest {
    @FuzzTest
    void anyTopologyFileIsAFatTreeOrRefusedInOneLine(final byte[] file) {
        final String text = new String(file, StandardCharsets.UTF_8);
        try {
            final HtsimTopology topology = HtsimTopology.parse(text, "fuzzed.topo");
            final FatTree.Shape shape = HtsimShape.of(topology, (tier, key) -> 0);
            assertEquals(topology.nodes(), shape.tors() * shape.hostsPerTor(), "every host in a rack");
            assertTrue(shape.switches() > 0);
        } catch (final ConfigException e) {
            assertOneLine(e, "fuzzed.topo", text);
        } catch (final RuntimeException e) {
            fail("not one clear line but " + e + " for:\n" + text, e);
        }
    }

    @FuzzTest
    void anyMatrixIsFlowsOrRefusedInOneLine(final byte[] file) {
        final String text = new String(file, StandardCharsets.UTF_8);
        try {
            final HtsimMatrix matrix = HtsimMatrix.parse(text, "fuzzed.cm");
            for (final HtsimMatrix.Connection c : matrix.connections()) {
                assertTrue(c.src() >= 0 && c.src() < matrix.nodes() && c.dst() >= 0 && c.dst() < matrix.nodes() && c.sizeBytes() > 0, c.toString());
            }
        } catch (final ConfigException e) {
            assertOneLine(e, "fuzzed.cm", text);
        } catch (final RuntimeException e) {
            fail("not one clear line but " + e + " for:\n" + text, e);
        }
    }

    private static void assertOneLine(final ConfigException e, final String source, final String input) {
        assertNotNull(e.getMessage(), "a refusal without a message for:\n" + input);
        assertEquals(1, e.getMessage().strip().lines().count(), "one line: " + e.getMessage());
        assertTrue(e.getMessage().startsWith(source), "names the file: " + e.getMessage());
    }
}
