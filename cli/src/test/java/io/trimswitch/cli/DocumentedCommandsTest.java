package io.trimswitch.cli;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The commands README.md and docs/ show run, and the figures they quote name the command that made them.
 *
 * <p>A command is a line of a {@code ```sh} block that starts with {@code cli/trimswitch}, {@code java -jar},
 * {@code ./mvnw} or {@code bench/}. Each runs in order, per document, from a scratch directory that sees the project's
 * {@code cli}, {@code config}, {@code bench}, {@code docs} and {@code mininet}, and must exit 0 within two minutes. A command that cannot
 * run here says what it needs, either in a shell comment on its line ({@code # ... (needs: long)}) or for a whole block
 * in an HTML comment on the line before the block ({@code <!-- needs: root -->}, or several: {@code <!-- needs: root long -->}):
 * {@code root} (namespaces, raw sockets), {@code hosts} (other machines, a cluster, a container), {@code build} (runs
 * Maven; CI runs the build itself) or {@code long} (minutes; run with {@code -Dtrimswitch.docs.long=true}).
 *
 * <p>A block marked {@code root} runs whole, as one script, when the test runs as root (as in CI): in namespaces of its
 * own (network, mount, process IDs), with its own {@code /run/netns} and {@code /dev/shm}, so that what it makes
 * (namespaces, veths, processes, counters files) goes with it and nothing of the host's is touched. No command may print
 * a WARNING, and every file a command writes goes under {@code results/}, which git ignores.
 *
 * <p>A figure is a table, a plot or a {@code ```text} block of output. Each must have a {@code ```sh} block before it in
 * its own section (since the last heading), or a column {@code made by} that names the command per row; a table that
 * quotes no measurement (options, settings) is marked {@code <!-- reference -->} on the line before it.
 */
@Tag("docs")
class DocumentedCommandsTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern COMMAND = Pattern.compile("^(cli/trimswitch|java -jar|\\./mvnw|bench/)\\S*");
    private static final String NEED = "(?:root|hosts|build|long)";
    private static final Pattern NEEDS_ON_LINE = Pattern.compile("#.*\\bneeds: (" + NEED + "(?: " + NEED + ")*)\\b");
    private static final Pattern NEEDS_BLOCK = Pattern.compile("<!-- needs: (" + NEED + "(?: " + NEED + ")*) -->");
    private static final boolean AS_ROOT = "root".equals(System.getProperty("user.name"));
    private static final long TIMEOUT_SECONDS = 120;

    /** A command (or a root block, whole) as a document shows it, and what it needs beyond this host, if anything. */
    record Command(Path document, int line, String text, String needs) {
        boolean needs(final String need) {
            return needs != null && List.of(needs.split(" ")).contains(need);
        }

        /** Why it is skipped, naming what would run it: only the needs this run does not meet (not root when it is root). */
        String whyNot(final boolean long_) {
            final List<String> reasons = new ArrayList<>();
            for (final String need : needs.split(" ")) {
                if ("root".equals(need) && AS_ROOT || "long".equals(need) && long_) {
                    continue;
                }
                reasons.add(switch (need) {
                    case "long" -> "needs long: runs with -Dtrimswitch.docs.long=true";
                    case "root" -> "needs root: runs when the tests run as root";
                    case "build" -> "needs build: runs Maven, which CI runs itself";
                    default -> "needs hosts: other machines, a cluster or a container";
                });
            }
            return String.join("; ", reasons);
        }

        /** Whether it runs here: as root only where the test runs as root, long ones only when asked. */
        boolean runsHere(final boolean long_) {
            return !needs("hosts") && !needs("build") && (!needs("root") || AS_ROOT) && (!needs("long") || long_);
        }
    }

    static List<Path> documents() throws IOException {
        final List<Path> documents = new ArrayList<>();
        documents.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(documents::add);
        }
        return documents;
    }

    static List<Command> commands(final Path document) throws IOException {
        final List<String> lines = Files.readAllLines(document);
        final List<Command> commands = new ArrayList<>();
        boolean inSh = false;
        boolean inFence = false;
        String blockNeeds = null;
        for (int i = 0; i < lines.size(); i++) {
            final String line = lines.get(i);
            if (line.startsWith("```")) {
                inFence = !inFence;
                inSh = inFence && line.equals("```sh");
                final Matcher marker = i > 0 ? NEEDS_BLOCK.matcher(lines.get(i - 1)) : null;
                blockNeeds = inSh && marker != null && marker.find() ? marker.group(1) : null;
                continue;
            }
            if (inSh && blockNeeds != null && List.of(blockNeeds.split(" ")).contains("root")) {
                // A root block is a script: its set-up, its commands and its teardown run together.
                final int first = i;
                final StringBuilder block = new StringBuilder();
                while (i < lines.size() && !lines.get(i).startsWith("```")) {
                    block.append(lines.get(i++)).append('\n');
                }
                commands.add(new Command(document, first + 1, block.toString(), blockNeeds));
                inFence = false;
                inSh = false;
                blockNeeds = null;
                continue;
            }
            if (!inSh || !COMMAND.matcher(line).find()) {
                continue;
            }
            final StringBuilder text = new StringBuilder(line);
            while (text.toString().endsWith("\\") && i + 1 < lines.size()) {
                text.setLength(text.length() - 1);
                text.append(' ').append(lines.get(++i).trim());
            }
            final Matcher onLine = NEEDS_ON_LINE.matcher(text);
            commands.add(new Command(document, i + 1, text.toString(), onLine.find() ? onLine.group(1) : blockNeeds));
        }
        return commands;
    }

    /**
     * The folders the commands run in, made here rather than by {@code @TempDir}: they hold links into the project,
     * which JUnit's clean-up would warn of, one warning a link.
     */
    private static final List<Path> SCRATCH = new java.util.concurrent.CopyOnWriteArrayList<>();

    @org.junit.jupiter.api.AfterAll
    static void removeScratch() throws IOException {
        for (final Path dir : SCRATCH) {
            // Links are deleted as links: what they point to stays.
            Files.walkFileTree(dir, new java.nio.file.SimpleFileVisitor<>() {
                @Override
                public java.nio.file.FileVisitResult visitFile(final Path file, final java.nio.file.attribute.BasicFileAttributes attributes) throws IOException {
                    Files.delete(file);
                    return java.nio.file.FileVisitResult.CONTINUE;
                }

                @Override
                public java.nio.file.FileVisitResult postVisitDirectory(final Path folder, final IOException failure) throws IOException {
                    Files.delete(folder);
                    return java.nio.file.FileVisitResult.CONTINUE;
                }
            });
        }
    }

    @TestFactory
    Stream<DynamicTest> everyUnmarkedCommandRunsAndExitsZero() throws IOException {
        final Path scratch = Files.createTempDirectory("trimswitch-docs");
        SCRATCH.add(scratch);
        final boolean long_ = Boolean.getBoolean("trimswitch.docs.long");
        final List<DynamicTest> tests = new ArrayList<>();
        for (final Path document : documents()) {
            final Path workDir = Files.createDirectories(scratch.resolve("in-" + document.getFileName()));
            for (final String shared : new String[] {"cli", "config", "bench", "docs", "mininet"}) {
                Files.createSymbolicLink(workDir.resolve(shared), ROOT.resolve(shared));
            }
            for (final Command command : commands(document)) {
                final String name = ROOT.relativize(document) + ":" + command.line() + ": " + command.text();
                tests.add(DynamicTest.dynamicTest(name.lines().findFirst().orElse(name), () -> {
                    Assumptions.assumeTrue(command.runsHere(long_), () -> command.whyNot(long_));
                    run(command, workDir);
                }));
            }
        }
        return tests.stream();
    }

    private static void run(final Command command, final Path workDir) throws IOException, InterruptedException {
        final List<String> shell = command.needs("root")
            ? List.of("unshare", "--mount", "--net", "--pid", "--fork", "--mount-proc", "--propagation", "private", "/bin/sh", "-c",
                "mkdir -p /run/netns && mount -t tmpfs docs-netns /run/netns && mount -t tmpfs docs-shm /dev/shm"
                    + " && ip link set lo up && exec /bin/sh -c \"$0\"", command.text())
            : List.of("/bin/sh", "-c", command.text());
        final ProcessBuilder process = new ProcessBuilder(shell).directory(workDir.toFile())
            .redirectErrorStream(true).redirectOutput(workDir.resolve("last-output.txt").toFile());
        // `java` in a document is a JDK 25: the one running this test.
        final Map<String, String> environment = process.environment();
        environment.put("PATH", Path.of(System.getProperty("java.home"), "bin") + File.pathSeparator + environment.get("PATH"));
        final Process started = process.start();
        if (!started.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            started.descendants().forEach(ProcessHandle::destroyForcibly);
            started.destroyForcibly();
            throw new AssertionError(command.document().getFileName() + ":" + command.line() + " took over " + TIMEOUT_SECONDS
                + " s: mark it '(needs: long)'");
        }
        final String output = Files.readString(workDir.resolve("last-output.txt"), StandardCharsets.UTF_8);
        assertEquals(0, started.exitValue(), command.document().getFileName() + ":" + command.line() + ": " + command.text() + "\n" + tail(output));
        assertFalse(output.contains("WARNING"), command.document().getFileName() + ":" + command.line() + " printed a warning:\n" + tail(output));
    }

    private static String tail(final String output) {
        final String[] lines = output.split("\n");
        return String.join("\n", List.of(lines).subList(Math.max(0, lines.length - 15), lines.length));
    }

    @Test
    void everyFigureNamesTheCommandThatMadeIt() throws IOException {
        final Map<String, String> unsourced = new TreeMap<>();
        for (final Path document : documents()) {
            final List<String> lines = Files.readAllLines(document);
            boolean commandInSection = false;
            boolean inFence = false;
            for (int i = 0; i < lines.size(); i++) {
                final String line = lines.get(i);
                final String before = i > 0 ? lines.get(i - 1) : "";
                final String where = ROOT.relativize(document) + ":" + (i + 1);
                if (line.startsWith("```")) {
                    if (!inFence && line.equals("```sh")) {
                        commandInSection = true;
                    } else if (!inFence && line.equals("```text") && !commandInSection) {
                        unsourced.put(where, "output without the command that printed it");
                    }
                    inFence = !inFence;
                    continue;
                }
                if (inFence) {
                    continue;
                }
                if (line.matches("#{1,6} .*")) {
                    commandInSection = false;
                } else if (line.startsWith("|") && !before.startsWith("|")) {
                    final boolean reference = before.trim().equals("<!-- reference -->");
                    final boolean perRow = line.toLowerCase(java.util.Locale.ROOT).contains("| made by |");
                    if (!reference && !perRow && !commandInSection) {
                        unsourced.put(where, "table: " + line);
                    }
                } else if (line.contains("![") && !commandInSection) {
                    unsourced.put(where, "plot: " + line);
                }
            }
        }
        assertTrue(unsourced.isEmpty(), "figures without the command that made them (a ```sh block before them in their section,"
            + " a 'made by' column, or <!-- reference --> for a table of options): " + unsourced);
    }

    /** What a documented command writes lands under results/ (git ignores it; rm -rf results removes it), or on standard output. */
    @Test
    void everyFileADocumentedCommandWritesGoesUnderResults() throws IOException {
        final Pattern output = Pattern.compile("(?:--out|--out-dir|--pcap-dir|--json) (\\S+)");
        final List<String> elsewhere = new ArrayList<>();
        for (final Path document : documents()) {
            for (final Command command : commands(document)) {
                final Matcher found = output.matcher(command.text().replaceAll("(?m)#.*$", ""));
                while (found.find()) {
                    final String path = found.group(1).replace("\"", "");
                    if (!path.equals("-") && !path.equals("results") && !path.startsWith("results/")) {
                        elsewhere.add(ROOT.relativize(document) + ":" + command.line() + ": " + found.group());
                    }
                }
            }
        }
        final String slurm = Files.readString(ROOT.resolve("docs/examples/evaluate-slurm.sh"));
        final Matcher slurmOutput = Pattern.compile("(?:--output=|--out)\\s*\"?([^\\s\"]+)").matcher(slurm);
        while (slurmOutput.find()) {
            if (!slurmOutput.group(1).startsWith("results/")) {
                elsewhere.add("docs/examples/evaluate-slurm.sh: " + slurmOutput.group());
            }
        }
        assertTrue(elsewhere.isEmpty(), "outputs outside results/: " + elsewhere);
    }

    /** The settings files' own comments show the launcher, which finds a JDK 25, not a java that may be older. */
    @Test
    void theConfigExamplesRunTheLauncher() throws IOException {
        try (Stream<Path> examples = Files.list(ROOT.resolve("config/examples"))) {
            for (final Path example : examples.filter(file -> file.toString().endsWith(".yaml")).toList()) {
                final String text = Files.readString(example);
                assertFalse(text.contains("java -jar"), example + " shows java -jar; show cli/trimswitch");
            }
        }
    }

    @Test
    void theReadmeIsShortAndShowsTheTwoCommandsFirst() throws IOException {
        final List<String> readme = Files.readAllLines(ROOT.resolve("README.md"));
        assertTrue(readme.size() <= 150, "README.md has " + readme.size() + " lines; at most 150");
        final List<String> first = readme.subList(0, 30);
        assertTrue(first.contains("./mvnw -B -q package -DskipTests && cli/trimswitch scenario"), "the build and first run in the first 30 lines");
        assertTrue(first.contains("./mvnw -B verify"), "the tests in the first 30 lines");
    }

    @Test
    void everyCommandIsFoundAndEveryMarkerNamesAKnownNeed() throws IOException {
        int commands = 0;
        for (final Path document : documents()) {
            final List<String> lines = Files.readAllLines(document);
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).contains("needs:") && lines.get(i).contains("<!--")) {
                    assertTrue(NEEDS_BLOCK.matcher(lines.get(i)).find(), document + ":" + (i + 1) + ": unknown need");
                }
            }
            commands += commands(document).size();
        }
        assertTrue(commands >= 20, "only " + commands + " commands found");
    }

    @Test
    void everyLinkBetweenTheDocumentsReachesAFileAndAHeading() throws IOException {
        final Pattern link = Pattern.compile("\\]\\(([^)#\\s]*)(#[^)\\s]+)?\\)");
        final List<String> broken = new ArrayList<>();
        for (final Path document : documents()) {
            boolean inFence = false;
            final List<String> lines = Files.readAllLines(document);
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).startsWith("```")) {
                    inFence = !inFence;
                }
                if (inFence) {
                    continue;
                }
                final Matcher found = link.matcher(lines.get(i));
                while (found.find()) {
                    final String file = found.group(1);
                    if (file.startsWith("http://") || file.startsWith("https://")) {
                        continue;
                    }
                    final Path target = file.isEmpty() ? document : document.getParent().resolve(file).normalize();
                    final String where = ROOT.relativize(document) + ":" + (i + 1) + ": " + found.group();
                    if (!Files.exists(target)) {
                        broken.add(where + " (no such file)");
                    } else if (found.group(2) != null && !headings(target).contains(found.group(2).substring(1))) {
                        broken.add(where + " (no such heading)");
                    }
                }
            }
        }
        assertTrue(broken.isEmpty(), "links that lead nowhere: " + broken);
    }

    /** The anchors GitHub gives a Markdown file's headings. */
    private static List<String> headings(final Path document) throws IOException {
        final List<String> anchors = new ArrayList<>();
        if (!document.toString().endsWith(".md")) {
            return anchors;
        }
        boolean inFence = false;
        for (final String line : Files.readAllLines(document)) {
            if (line.startsWith("```")) {
                inFence = !inFence;
            }
            if (!inFence && line.matches("#{1,6} .*")) {
                final String text = line.replaceFirst("#{1,6} ", "").trim().toLowerCase(java.util.Locale.ROOT);
                anchors.add(text.replaceAll("[^\\p{L}\\p{N}\\- _]", "").replace(' ', '-'));
            }
        }
        return anchors;
    }
}
