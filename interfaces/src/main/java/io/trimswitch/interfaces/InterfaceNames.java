package io.trimswitch.interfaces;

import java.lang.foreign.Arena;

/** Whether a Linux interface exists in this process's network namespace, asked of the kernel as a port's socket would. */
public final class InterfaceNames {
    private InterfaceNames() {
    }

    /** True when {@code name} is an interface here now (if_nametoindex knows it). */
    public static boolean exists(final String name) {
        try (Arena scratch = Arena.ofConfined()) {
            return LinuxCalls.ifNameToIndex(scratch.allocateFrom(name)) != 0;
        }
    }
}
