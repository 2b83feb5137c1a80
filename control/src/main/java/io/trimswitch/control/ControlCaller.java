package io.trimswitch.control;

import io.trimswitch.interfaces.CallerFiles;

/**
 * Who sent the command being run: the control socket binds it, from the peer's credentials, for the command's
 * duration; a command that touches files (capture) acts with these rights and no more. Unbound (a command run in the
 * switch's own process, as tests do), it is the switch's own user.
 */
public final class ControlCaller {
    static final ScopedValue<CallerFiles.Caller> CURRENT = ScopedValue.newInstance();
    /** A peer whose credentials could not be read: the rights of no one. */
    static final CallerFiles.Caller NOBODY = new CallerFiles.Caller(65534, 65534);

    private ControlCaller() {
    }

    /** The caller of the command being run. */
    public static CallerFiles.Caller current() {
        return CURRENT.isBound() ? CURRENT.get() : CallerFiles.Caller.ROOT;
    }
}
