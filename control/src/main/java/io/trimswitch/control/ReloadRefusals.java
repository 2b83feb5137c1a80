package io.trimswitch.control;

import io.trimswitch.config.ConfigException;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a refused {@code reload} tells a caller who is not root: where in the settings file, never what. A member of
 * the control group may be able to put another file (one only root may read) where the settings file is named, and a
 * refusal that quotes a key or a value would then hand them a line of it. Root is told the whole reason.
 */
final class ReloadRefusals {
    private static final Pattern LINE = Pattern.compile("\\(line ([0-9]+)\\)");
    /** A setting's name at the start of a refusal ("trim.dscp must be ..."): one of the switch's own keys, not the file's text. */
    private static final Pattern KEY = Pattern.compile("^reload: ([a-z][A-Za-z0-9]*(?:\\.[A-Za-z0-9]+|\\[[0-9]+])*) ");
    /** The refusal of keys that may not change while running: it names known keys only. */
    private static final Pattern FIXED_KEYS = Pattern.compile("^reload: [A-Za-z0-9.\\[\\], ]+ cannot change while the switch runs .*");

    private ReloadRefusals() {
    }

    /** {@code refused} as the caller of the command being run may read it. */
    static ConfigException forCaller(final ConfigException refused) {
        final String message = refused.getMessage();
        if (ControlCaller.current().isRoot() || FIXED_KEYS.matcher(message).matches()) {
            return refused;
        }
        final Matcher line = LINE.matcher(message);
        final Matcher key = KEY.matcher(message);
        final String where = line.find() ? " at line " + line.group(1) : key.find() ? " at " + key.group(1) : "";
        return new ConfigException("reload: the settings file was refused" + where + " (the reason quotes the file, and only root is"
            + " shown it: run ctl reload as root to see it); nothing was changed");
    }
}
