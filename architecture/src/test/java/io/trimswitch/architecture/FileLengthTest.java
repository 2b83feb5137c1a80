package io.trimswitch.architecture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every class a newcomer opens reads in one sitting: no main source file of any module passes 400 lines. */
class FileLengthTest {
    static final int MOST_LINES = 400;
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void noMainSourceFileOfAnyModulePassesTheCap() {
        final List<String> longer = longer(ROOT);
        assertTrue(longer.isEmpty(), "main source files of more than " + MOST_LINES + " lines: " + longer);
    }

    @Test
    void aFilePlantedPastTheCapIsNamedWithItsLines(@TempDir final Path project) throws IOException {
        final Path sources = Files.createDirectories(project.resolve("planted/src/main/java/io/trimswitch/planted"));
        Files.writeString(sources.resolve("Long.java"), "//\n".repeat(MOST_LINES + 1));
        Files.writeString(sources.resolve("Short.java"), "//\n".repeat(MOST_LINES));
        // A test source past the cap is not a main source.
        Files.writeString(Files.createDirectories(project.resolve("planted/src/test/java")).resolve("LongTest.java"), "//\n".repeat(MOST_LINES * 2));
        // A module in a module's folder (as ndp/live) is a module too.
        final Path nested = Files.createDirectories(project.resolve("planted/live/src/main/java/io/trimswitch/planted/live"));
        Files.writeString(nested.resolve("Long.java"), "//\n".repeat(MOST_LINES + 1));
        assertEquals(List.of("planted/live/src/main/java/io/trimswitch/planted/live/Long.java 401",
            "planted/src/main/java/io/trimswitch/planted/Long.java 401"), longer(project));
    }

    /** The main source files under {@code root}'s modules (in its folders and theirs) past the cap, each as its path and its lines. */
    static List<String> longer(final Path root) {
        try (Stream<Path> modules = Files.walk(root, 2)) {
            return modules.map(module -> module.resolve("src/main/java")).filter(Files::isDirectory).flatMap(FileLengthTest::javaFiles)
                .filter(file -> lines(file) > MOST_LINES).map(file -> root.relativize(file) + " " + lines(file)).sorted().toList();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Stream<Path> javaFiles(final Path sources) {
        try (Stream<Path> files = Files.walk(sources)) {
            return files.filter(file -> file.toString().endsWith(".java")).toList().stream();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long lines(final Path file) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.count();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
