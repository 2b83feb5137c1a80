package io.trimswitch.evaluation.evaluate;

import io.trimswitch.config.ConfigException;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Shard {@code index} of {@code count} (from 1): the evaluation's runs, numbered in the order the experiments plan them,
 * go round robin to the shards, run k to shard (k mod count) + 1. Every run falls to exactly one shard, and since each
 * run is a seeded world of its own in virtual time, its result does not depend on which shard ran it.
 */
public record Shard(int index, int count) {
    private static final Pattern FORM = Pattern.compile("(\\d{1,9})/(\\d{1,9})");

    public Shard {
        if (count < 1) {
            throw new ConfigException("--shard " + index + "/" + count + ": the number of shards must be at least 1");
        }
        if (index < 1 || index > count) {
            throw new ConfigException("--shard " + index + "/" + count + ": the shard must be between 1 and " + count);
        }
    }

    /** Reads {@code I/N}, as {@code --shard} takes it. */
    public static Shard parse(final String text) {
        final Matcher matcher = FORM.matcher(text.trim());
        if (!matcher.matches()) {
            throw new ConfigException("--shard '" + text + "': expected I/N, shard I of N, e.g. 1/3");
        }
        return new Shard(io.trimswitch.config.WholeNumbers.parseInt(matcher.group(1)), io.trimswitch.config.WholeNumbers.parseInt(matcher.group(2)));
    }

    /** Whether the run numbered {@code run} (from 0, over every experiment of the evaluation) falls to this shard. */
    public boolean owns(final int run) {
        return ownerOf(run, count) == index;
    }

    static int ownerOf(final int run, final int count) {
        return run % count + 1;
    }

    @Override
    public String toString() {
        return index + "/" + count;
    }
}
