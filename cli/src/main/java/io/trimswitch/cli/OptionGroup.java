package io.trimswitch.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Options several commands share, defined in code as a picocli mixin. Picocli reads annotations through proxy classes
 * the JVM generates at run time, which no class-data sharing archive of Java 17 keeps: defined in code, they let
 * {@code scenario}, the command users start most, build its model without any.
 */
abstract class OptionGroup {
    private final CommandSpec mixin = CommandSpec.create();

    /** Adds this group's options to {@code command}, under {@code name}. */
    final void addTo(final CommandSpec command, final String name) {
        command.addMixin(name, mixin);
    }

    /** Defines an option of this group. */
    final OptionSpec option(final OptionSpec.Builder option) {
        final OptionSpec built = option.build();
        mixin.addOption(built);
        return built;
    }

    /** Commands defined by annotations that take option groups: the tool adds them once picocli has built the model. */
    interface User {
        void addOptionGroups(CommandSpec command);
    }
}
