package io.trimswitch.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What {@code --help} and the man pages print reads whole: a command's description is written in sentences that picocli
 * wraps to the terminal, never broken by hand mid-sentence (which leaves ragged lines), and a parameter's label has no
 * dot, which AsciiDoc would read as markup ({@code FILE.csv} rendered as {@code FILE. _ csv_}).
 */
class HelpTextTest {
    @Test
    void everyDescriptionLineEndsASentence() {
        final List<String> ragged = new ArrayList<>();
        walk(TrimswitchCommand.tree(), command -> {
            if (command.userObject() instanceof picocli.CommandLine.HelpCommand) {
                return; // picocli's own
            }
            for (final String line : command.usageMessage().description()) {
                if (!line.isBlank() && !line.strip().matches("(?s).*[.:)!?]$")) {
                    ragged.add(command.qualifiedName() + ": '" + line + "'");
                }
            }
        });
        assertEquals(List.of(), ragged, "description lines broken by hand");
    }

    @Test
    void noParameterLabelHasADot() {
        final List<String> dotted = new ArrayList<>();
        walk(TrimswitchCommand.tree(), command -> {
            for (final ArgSpec arg : command.args()) {
                if (arg.paramLabel().contains(".")) {
                    dotted.add(command.qualifiedName() + ": " + arg.paramLabel());
                }
            }
        });
        assertEquals(List.of(), dotted, "parameter labels with a dot");
    }

    private static void walk(final CommandLine command, final java.util.function.Consumer<CommandSpec> visit) {
        visit.accept(command.getCommandSpec());
        command.getSubcommands().values().forEach(sub -> walk(sub, visit));
    }
}
