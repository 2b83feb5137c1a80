package io.trimswitch.cli;

import picocli.CommandLine;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * "Did you mean" for a mistyped command or option: the names of the command that are fewest edits away from what was
 * typed. Picocli's own suggestions list every option that shares the first two letters, in the order of the help.
 */
final class DidYouMean {
    /** At most this many names are suggested. */
    private static final int MOST = 3;

    private DidYouMean() {
    }

    /** {@code "; did you mean '--packets'?"} for the first argument nobody took, or "" when no name is close. */
    static String of(final CommandLine.UnmatchedArgumentException unmatched) {
        final List<String> arguments = unmatched.getUnmatched();
        if (arguments.isEmpty()) {
            return "";
        }
        final String typed = arguments.get(0).split("=", 2)[0];
        final CommandLine.Model.CommandSpec spec = unmatched.getCommandLine().getCommandSpec();
        final Collection<String> names = typed.startsWith("-") ? spec.optionsMap().keySet() : spec.subcommands().keySet();
        final List<String> nearest = nearest(typed, names);
        if (nearest.isEmpty()) {
            return "";
        }
        final StringBuilder line = new StringBuilder("; did you mean ");
        for (int i = 0; i < nearest.size(); i++) {
            line.append(i == 0 ? "" : i == nearest.size() - 1 ? " or " : ", ").append('\'').append(nearest.get(i)).append('\'');
        }
        return line.append('?').toString();
    }

    /** The names closest to {@code typed}, if within a third of its length in edits (a typo, not another word). */
    static List<String> nearest(final String typed, final Collection<String> names) {
        final int allowed = Math.max(1, typed.replaceFirst("^-+", "").length() / 3);
        int best = allowed + 1;
        final List<String> nearest = new ArrayList<>();
        for (final String name : names) {
            final int distance = distance(typed, name);
            if (distance < best) {
                best = distance;
                nearest.clear();
            }
            if (distance == best && nearest.size() < MOST) {
                nearest.add(name);
            }
        }
        return nearest;
    }

    /** Levenshtein's distance: the insertions, deletions and substitutions that turn {@code a} into {@code b}. */
    private static int distance(final String a, final String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                final int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            final int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
