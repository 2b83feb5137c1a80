package io.trimswitch.cli;

import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.codegen.docgen.manpage.ManPageGenerator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes, at build time, the man pages' AsciiDoc ({@code target/man-adoc/trimswitch.adoc} and one per command, which
 * the build turns into {@code target/man/*.1}) and the bash and zsh completion script ({@code target/completion/trimswitch}),
 * from the command models the tool itself parses with.
 */
public final class ManualAndCompletion {
    private ManualAndCompletion() {
    }

    public static void main(final String[] args) throws IOException {
        final Path target = Path.of(args[0]);
        final CommandLine tool = TrimswitchCommand.tree();
        tool.setCommandName("trimswitch");
        final Path man = Files.createDirectories(target.resolve("man-adoc"));
        final int written = ManPageGenerator.generateManPage(man.toFile(), null, new boolean[0], true, tool.getCommandSpec());
        if (written != 0) {
            throw new IllegalStateException("the man pages' AsciiDoc was not written (" + written + ")");
        }
        final Path completion = Files.createDirectories(target.resolve("completion"));
        Files.writeString(completion.resolve("trimswitch"), AutoComplete.bash("trimswitch", tool));
    }
}
