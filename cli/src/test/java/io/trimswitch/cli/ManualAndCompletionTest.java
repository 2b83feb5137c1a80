package io.trimswitch.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** What the help, the man pages and shell completion show a newcomer: summaries that read alone, examples, and values. */
class ManualAndCompletionTest {
    @TempDir
    static Path target;

    @BeforeAll
    static void writeThem() throws IOException {
        ManualAndCompletion.write(target);
    }

    /** The command list of {@code trimswitch --help} and a man page's NAME show a description's first line alone. */
    @Test
    void everySummaryIsAWholeSentence() {
        final List<String> cut = new ArrayList<>();
        final List<CommandLine> commands = new ArrayList<>(List.of(TrimswitchCommand.tree()));
        for (int i = 0; i < commands.size(); i++) {
            final CommandLine.Model.CommandSpec spec = commands.get(i).getCommandSpec();
            final String[] description = spec.usageMessage().description();
            final String summary = description.length == 0 ? "" : description[0].strip();
            if (!summary.endsWith(".") || summary.length() > 120) {
                cut.add(spec.qualifiedName() + ": '" + summary + "'");
            }
            commands.addAll(commands.get(i).getSubcommands().values());
        }
        assertTrue(cut.isEmpty(), "summaries that stop mid-sentence, or longer than a line: " + cut);
        // As `trimswitch --help` lists them: each command's entry, its wrapped lines joined, is a sentence.
        final String usage = Cli.trimswitch("--help").out();
        final String commandList = usage.substring(usage.indexOf("Commands:") + "Commands:".length());
        for (final String entry : commandList.strip().split("\n  (?=[a-z])")) {
            assertTrue(entry.strip().endsWith("."), "cut short in trimswitch --help: " + entry);
        }
    }

    @Test
    void everyManPageHasAWholeNameLineAndExamples() throws IOException {
        final List<Path> pages;
        try (Stream<Path> files = Files.list(target.resolve("man-adoc"))) {
            pages = files.filter(file -> file.toString().endsWith(".adoc")).sorted().toList();
        }
        assertTrue(pages.size() >= 11, "a page for the tool and each command: " + pages);
        for (final Path page : pages) {
            final List<String> lines = Files.readAllLines(page);
            final int name = lines.indexOf("== Name");
            assertTrue(name >= 0, page + " has no NAME");
            final String nameLine = lines.get(name + 2);
            assertTrue(nameLine.matches("trimswitch(-[a-z]+)* - .*\\."), page.getFileName() + ": " + nameLine);
            final int examples = lines.indexOf("== Examples");
            assertTrue(examples >= 0, page.getFileName() + " has no EXAMPLES");
            assertTrue(lines.subList(examples, lines.size()).stream().anyMatch(line -> line.startsWith("trimswitch ")),
                page.getFileName() + ": EXAMPLES shows no command");
        }
    }

    /** Bash (and zsh through bashcompinit) completes the option's value from the words the tool accepts. */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
        "scenario | --mechanism | ideal mod dod tofino tofino2",
        "scenario | --transport | open-loop ndp uet",
        "scenario | --idle      | busy-spin yield backoff sleep poll",
        "scenario | --placement | split per-pipeline single",
        "replay   | --mechanism | ideal mod dod tofino tofino2",
        "evaluate | --only      | mechanisms sweep robustness response sensitivity summary fabric uet",
        "fabric   | --routing   | spray ecmp",
        "fabric   | --workload  | permutation incast all-to-all flows",
        "fabric   | --leaf      | ideal mod dod tofino tofino2",
        "run      | --idle      | busy-spin yield backoff sleep poll"})
    void completionOffersTheValuesOfAnEnumeratedOption(final String command, final String option, final String values)
        throws IOException, InterruptedException {
        assertEquals(List.of(values.split(" ")), complete(command, option, ""));
        assertEquals(List.of(values.split(" ")[1]), complete(command, option, values.split(" ")[1].substring(0, 3))
            .stream().filter(word -> word.equals(values.split(" ")[1])).toList());
    }

    /** {@code ctl <TAB>} offers its commands, and after a command its words: set's keys, show's table. */
    @org.junit.jupiter.api.Test
    void ctlCompletesItsCommandsAndTheKeysSetTakes() throws IOException, InterruptedException {
        final List<String> commands = completeLine("ctl", "");
        assertTrue(commands.containsAll(List.of("help", "show", "set", "reload", "add-port", "del-port", "capture", "stop")), commands.toString());
        final List<String> keys = completeLine("ctl", "set", "trim.");
        assertTrue(keys.containsAll(List.of("trim.dscp", "trim.sizeBytes", "trim.trimmableDscp")), keys.toString());
        assertEquals(List.of("macs"), completeLine("ctl", "show", "ma"));
    }

    /** What bash offers for the last of {@code words} (a prefix, maybe empty) after {@code trimswitch}. */
    private static List<String> completeLine(final String... words) throws IOException, InterruptedException {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "needs bash");
        final StringBuilder quoted = new StringBuilder("trimswitch");
        for (final String word : words) {
            quoted.append(" '").append(word).append("'");
        }
        final String prefix = words[words.length - 1];
        final String previous = words.length > 1 ? words[words.length - 2] : "trimswitch";
        final String script = "source " + target.resolve("completion/trimswitch") + "\n"
            + "COMP_WORDS=(" + quoted + "); COMP_CWORD=" + words.length + "\n"
            + "COMP_LINE=\"${COMP_WORDS[*]}\"; COMP_POINT=${#COMP_LINE}\n"
            + "_complete_trimswitch trimswitch '" + prefix + "' '" + previous + "'\n"
            + "printf '%s\\n' \"${COMPREPLY[@]}\"\n";
        final Process bash = new ProcessBuilder("/bin/bash", "-c", script).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        final String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(bash.waitFor(30, TimeUnit.SECONDS));
        return out.lines().map(String::strip).filter(line -> !line.isEmpty()).map(line -> line.replace("'", "")).toList();
    }

    private static List<String> complete(final String command, final String option, final String prefix)
        throws IOException, InterruptedException {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "needs bash");
        final String script = "source " + target.resolve("completion/trimswitch") + "\n"
            + "COMP_WORDS=(trimswitch " + command + " " + option + " '" + prefix + "'); COMP_CWORD=3\n"
            + "COMP_LINE=\"${COMP_WORDS[*]}\"; COMP_POINT=${#COMP_LINE}\n"
            + "_complete_trimswitch trimswitch '" + prefix + "' " + option + "\n"
            + "printf '%s\\n' \"${COMPREPLY[@]}\"\n";
        final Process bash = new ProcessBuilder("/bin/bash", "-c", script)
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        final String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(bash.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, bash.exitValue(), out);
        final List<String> words = out.lines().map(String::strip).filter(line -> !line.isEmpty()).toList();
        assertFalse(words.isEmpty(), "nothing offered for " + command + " " + option + " '" + prefix + "'");
        return words;
    }
}
