package io.trimswitch.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The modules' layering that {@link LayeringTest} enforces is the one docs/design.md draws: each module may use what
 * its arrows reach, directly or through other modules, and nothing else.
 */
class DesignDiagramTest {
    private static final Path DESIGN = Path.of("..").toAbsolutePath().normalize().resolve("docs/design.md");
    private static final java.util.regex.Pattern ARROW = java.util.regex.Pattern.compile("^\\s*([a-z-]+)\\s*-->\\s*([a-z-]+)\\s*$");
    /** A node named by its module's folder where that is no mermaid name: {@code ndp-live["ndp/live"]}. */
    private static final java.util.regex.Pattern NAMED = java.util.regex.Pattern.compile("^\\s*([a-z-]+)\\[\"([a-z/-]+)\"\\]\\s*$");

    @Test
    void theLayeringTestedIsTheDiagramDrawn() throws IOException {
        final List<String> differences = differences(reach(diagram(Files.readString(DESIGN))), LayeringTest.MAY_USE);
        assertTrue(differences.isEmpty(), "LayeringTest.MAY_USE and design.md's diagram differ: " + differences);
    }

    @Test
    void anArrowMissingFromTheDiagramIsADifference() throws IOException {
        final String drawn = Files.readString(DESIGN);
        final String planted = drawn.replace("  ndp-live --> ndp\n", "");
        assertTrue(planted.length() < drawn.length(), "the diagram draws ndp-live --> ndp");
        final List<String> found = differences(reach(diagram(planted)), LayeringTest.MAY_USE);
        // Nothing reaches NDP's live hosts (the tool finds their command by name): the one difference is theirs.
        assertEquals(1, found.size(), found.toString());
        assertTrue(found.get(0).startsWith("ndp/live may use [config, dataplane, ndp, pipelines, recirc, simulator, switching, traffic-manager]")
            && found.get(0).endsWith("but the diagram reaches []"), found.toString());
    }

    /** The arrows of the mermaid flowchart: each module (a node's name, or its folder where one is named) and the modules it points at. */
    static Map<String, Set<String>> diagram(final String markdown) {
        final int start = markdown.indexOf("```mermaid");
        final int end = markdown.indexOf("```", start + 3);
        assertTrue(start >= 0 && end > start, "design.md has a mermaid diagram");
        final String[] lines = markdown.substring(start, end).split("\n");
        final Map<String, String> folders = new TreeMap<>();
        for (final String line : lines) {
            final Matcher named = NAMED.matcher(line);
            if (named.matches()) {
                folders.put(named.group(1), named.group(2));
            }
        }
        final Map<String, Set<String>> arrows = new TreeMap<>();
        for (final String line : lines) {
            final Matcher arrow = ARROW.matcher(line);
            if (arrow.matches()) {
                final String from = folders.getOrDefault(arrow.group(1), arrow.group(1));
                final String to = folders.getOrDefault(arrow.group(2), arrow.group(2));
                arrows.computeIfAbsent(from, module -> new TreeSet<>()).add(to);
                arrows.computeIfAbsent(to, module -> new TreeSet<>());
            }
        }
        return arrows;
    }

    /** What each module reaches by following arrows. */
    static Map<String, Set<String>> reach(final Map<String, Set<String>> arrows) {
        final Map<String, Set<String>> reached = new TreeMap<>();
        for (final String module : arrows.keySet()) {
            final Set<String> seen = new TreeSet<>();
            final Deque<String> next = new ArrayDeque<>(arrows.get(module));
            while (!next.isEmpty()) {
                final String other = next.pop();
                if (seen.add(other)) {
                    next.addAll(arrows.getOrDefault(other, Set.of()));
                }
            }
            reached.put(module, seen);
        }
        return reached;
    }

    private static List<String> differences(final Map<String, Set<String>> drawn, final Map<String, Set<String>> tested) {
        final List<String> differences = new ArrayList<>();
        final Set<String> modules = new TreeSet<>(drawn.keySet());
        modules.addAll(tested.keySet());
        for (final String module : modules) {
            final Set<String> reaches = drawn.getOrDefault(module, Set.of());
            final Set<String> mayUse = new TreeSet<>(tested.getOrDefault(module, Set.of()));
            if (!reaches.equals(mayUse)) {
                differences.add(module + " may use " + mayUse + " but the diagram reaches " + reaches);
            }
        }
        return differences;
    }
}
