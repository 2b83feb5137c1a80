package io.trimswitch.cli;

import picocli.CommandLine.Model.CommandSpec;

/** Options several commands share, defined in code as a picocli mixin (see {@link OptionsInCode}). */
abstract class OptionGroup extends OptionsInCode {
    /** Adds this group's options to {@code command}, under {@code name}. */
    final void addTo(final CommandSpec command, final String name) {
        command.addMixin(name, model());
    }
}
