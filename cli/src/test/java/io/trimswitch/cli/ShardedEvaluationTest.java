package io.trimswitch.cli;

import io.trimswitch.cli.Cli;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static io.trimswitch.cli.Cli.trimswitch;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An evaluation run in three shards and merged writes what the same evaluation run whole writes, byte for byte. */
class ShardedEvaluationTest {
    /** Small, and it covers a timeline (response), the summary's text and the per-run JSON. */
    private static final String EXPERIMENTS = "mechanisms,response,summary";
    /** What a run took on this host: the only thing a merged evaluation reports differently. */
    private static final Pattern SECONDS = Pattern.compile("<td>[0-9.]+</td></tr>");

    @TempDir
    static Path dir;
    static Cli.Result whole;
    static Cli.Result merged;

    @BeforeAll
    static void runWholeAndInThreeShards() {
        whole = trimswitch("evaluate", "--only", EXPERIMENTS, "--out", dir.resolve("whole").toString(), "--quiet");
        assertEquals(0, whole.exit(), whole.err());
        for (int shard = 1; shard <= 3; shard++) {
            final Cli.Result result = trimswitch("evaluate", "--only", EXPERIMENTS, "--shard", shard + "/3",
                "--out", dir.resolve("shard-" + shard).toString(), "--quiet");
            assertEquals(0, result.exit(), result.err());
        }
        merged = trimswitch("evaluate", "--merge", dir.resolve("shard-1").toString(), dir.resolve("shard-2").toString(),
            dir.resolve("shard-3").toString(), "--out", dir.resolve("merged").toString());
        assertEquals(0, merged.exit(), merged.err());
    }

    private static List<String> files(final Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(Files::isRegularFile).map(path -> root.relativize(path).toString()).sorted().toList();
        }
    }

    @Test
    void theMergeWritesEveryFileTheWholeRunWritesWithTheSameBytes() throws IOException {
        final Path wholeDir = dir.resolve("whole");
        final Path mergedDir = dir.resolve("merged");
        assertEquals(files(wholeDir), files(mergedDir));
        for (final String file : files(wholeDir)) {
            if (file.equals("timings.json")) {
                continue;
            }
            if (file.equals("index.html")) {
                assertEquals(SECONDS.matcher(Files.readString(wholeDir.resolve(file))).replaceAll(""),
                    SECONDS.matcher(Files.readString(mergedDir.resolve(file))).replaceAll(""), file);
                continue;
            }
            assertArrayEquals(Files.readAllBytes(wholeDir.resolve(file)), Files.readAllBytes(mergedDir.resolve(file)), file);
        }
    }

    @Test
    void theMergePrintsTheSummaryTheWholeRunPrints() {
        assertEquals(summary(whole.out()), summary(merged.out()));
    }

    private static String summary(final String out) {
        return out.substring(out.indexOf("| workload"), out.indexOf("wrote "));
    }

    @Test
    void everyRunFallsToExactlyOneShard() throws IOException {
        final List<String> all = new ArrayList<>();
        for (int shard = 1; shard <= 3; shard++) {
            final Path runs = dir.resolve("shard-" + shard).resolve("runs");
            all.addAll(files(runs));
        }
        assertEquals(files(dir.resolve("whole").resolve("runs")), new ArrayList<>(new TreeSet<>(all)));
        assertEquals(files(dir.resolve("whole").resolve("runs")).size(), all.size());
    }

    @Test
    void badShardsAndMissingOrForeignShardDirectoriesAreOneLineAndExitTwo() throws IOException {
        for (final String bad : new String[] {"0/3", "4/3", "1/0", "x", "1/", "-1/3"}) {
            final Cli.Result result = trimswitch("evaluate", "--only", "response", "--shard", bad, "--out", dir.resolve("bad").toString());
            assertEquals(2, result.exit(), bad + ": " + result.err());
            assertEquals(1, result.err().lines().count(), result.err());
            assertTrue(result.err().startsWith("trimswitch: --shard"), result.err());
        }
        final String one = dir.resolve("shard-1").toString();
        final String two = dir.resolve("shard-2").toString();
        final String three = dir.resolve("shard-3").toString();
        final String out = dir.resolve("bad-merge").toString();
        oneLine("is missing", "evaluate", "--merge", one, two, "--out", out);
        oneLine("are both shard 1/3", "evaluate", "--merge", one, one, three, "--out", out);
        oneLine("is not a directory", "evaluate", "--merge", one, two, dir.resolve("nowhere").toString(), "--out", out);
        oneLine("has no shard.json", "evaluate", "--merge", one, two, dir.resolve("whole").toString(), "--out", out);
        final Cli.Result other = trimswitch("evaluate", "--only", "response", "--shard", "3/3", "--out", dir.resolve("other-3").toString(), "--quiet");
        assertEquals(0, other.exit(), other.err());
        oneLine("another evaluation", "evaluate", "--merge", one, two, dir.resolve("other-3").toString(), "--out", out);
        final Path incomplete = dir.resolve("shard-2-incomplete");
        for (final String file : files(dir.resolve("shard-2"))) {
            Files.createDirectories(incomplete.resolve(file).getParent());
            Files.copy(dir.resolve("shard-2").resolve(file), incomplete.resolve(file));
        }
        Files.delete(incomplete.resolve("runs/response").resolve(files(incomplete.resolve("runs/response")).get(0)));
        oneLine("lacks run response/", "evaluate", "--merge", one, incomplete.toString(), three, "--out", out);
    }

    private static void oneLine(final String expected, final String... args) {
        final Cli.Result result = trimswitch(args);
        assertEquals(2, result.exit(), result.err());
        assertEquals(1, result.err().lines().count(), result.err());
        assertTrue(result.err().contains(expected), result.err());
    }
}
