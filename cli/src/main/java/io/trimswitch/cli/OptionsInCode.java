package io.trimswitch.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.IGetter;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;

import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Options defined in code through picocli's API, into a model of their own: a command's ({@code scenario},
 * {@code replay}) or a mixin's ({@link OptionGroup}). Picocli reads annotations through proxy classes the JVM generates
 * at run time, which no class-data sharing archive of Java 17 keeps: the commands users start most build their models
 * without any.
 */
abstract class OptionsInCode {
    private final CommandSpec model = CommandSpec.wrapWithoutInspection(this);

    /** The model the options are defined into, for picocli to parse into (and, for a command, to run). */
    final CommandSpec model() {
        return model;
    }

    final OptionSpec option(final String name, final String label, final Class<?> type, final String description) {
        return option(OptionSpec.builder(name).paramLabel(label).type(type).description(description));
    }

    /** An option without a parameter: set when given. */
    final OptionSpec flag(final String name, final String description) {
        return option(OptionSpec.builder(name).type(boolean.class).description(description));
    }

    final OptionSpec option(final OptionSpec.Builder option) {
        final OptionSpec built = option.build();
        model.addOption(built);
        return built;
    }

    /** An option whose value lives in a field of the command, which picocli reads through {@code get} and writes through {@code set}. */
    final <T> OptionSpec bound(final String name, final String label, final Class<T> type, final String description, final Supplier<T> get,
        final Consumer<T> set) {
        return bound(OptionSpec.builder(name).paramLabel(label).type(type).description(description), get, set);
    }

    final <T> OptionSpec bound(final OptionSpec.Builder option, final Supplier<T> get, final Consumer<T> set) {
        final FieldBinding<T> binding = new FieldBinding<>(get, set);
        return option(option.getter(binding).setter(binding));
    }

    /** Adds {@code group}'s options here, under {@code name}, after those defined so far. */
    final <T extends OptionGroup> T group(final T group, final String name) {
        group.addTo(model, name);
        return group;
    }

    static boolean given(final OptionSpec option) {
        return option.getValue() != null;
    }

    static boolean set(final OptionSpec flag) {
        return Boolean.TRUE.equals(flag.getValue());
    }

    /** A field of the command as picocli's binding: a repeated option reads back the list it adds to. */
    private static final class FieldBinding<T> implements IGetter, ISetter {
        private final Supplier<T> get;
        private final Consumer<T> set;

        FieldBinding(final Supplier<T> get, final Consumer<T> set) {
            this.get = get;
            this.set = set;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <V> V get() {
            return (V) get.get();
        }

        @Override
        @SuppressWarnings("unchecked")
        public <V> V set(final V value) {
            final V previous = (V) get.get();
            set.accept((T) value);
            return previous;
        }
    }
}
