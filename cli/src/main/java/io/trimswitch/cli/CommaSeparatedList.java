package io.trimswitch.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Stack;

/**
 * How every list option's value is split: on commas, each occurrence adding to the list. An empty item (a leading,
 * trailing or doubled comma, or an empty value) is a usage error, where picocli's own split drops trailing ones: an
 * option given as {@code ,} would otherwise add nothing and leave the run to its defaults.
 */
final class CommaSeparatedList implements CommandLine.IParameterConsumer {
    @Override
    public void consumeParameters(final Stack<String> args, final ArgSpec list, final CommandSpec command) {
        final String name = ((OptionSpec) list).longestName();
        if (args.isEmpty() || command.optionsMap().containsKey(args.peek())) {
            throw new CommandLine.MissingParameterException(command.commandLine(), list,
                "Missing required parameter for option '" + name + "' (" + list.paramLabel() + ")");
        }
        final String value = args.pop();
        List<String> items = list.getValue();
        if (items == null) {
            items = new ArrayList<>();
            list.setValue(items);
        }
        for (final String item : value.split(",", -1)) {
            if (item.isBlank()) {
                throw new CommandLine.ParameterException(command.commandLine(),
                    name + " '" + value + "': an empty item; give one or more " + list.paramLabel() + " separated by single commas");
            }
            items.add(item);
        }
    }
}
