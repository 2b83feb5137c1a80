package io.trimswitch.interfaces;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Opens a file for writing with the rights of the user who asked for it, not the switch's: a {@code ctl capture} from
 * a member of the control group writes only where that member could write.
 *
 * <p>The file is opened on a thread of its own whose file-system identity (setfsuid, setfsgid, and no supplementary
 * groups) is the caller's; Linux checks every path component with that identity and clears the thread's
 * CAP_DAC_OVERRIDE meanwhile. The thread ends after the one open, so the identity never leaks into the switch. The last
 * component is never followed if it is a symbolic link, the file is made anew (or, when asked, an existing one
 * replaced), and anything but a regular file is refused: a FIFO or a device never blocks or feeds the switch.
 */
public final class CallerFiles {
    /** Who asked, as the control socket's peer credentials (SO_PEERCRED) say. */
    public record Caller(int uid, int gid) {
        public static final Caller ROOT = new Caller(0, 0);

        public boolean isRoot() {
            return uid == 0;
        }
    }

    /** Why a file was not opened, in one line. */
    public static final class Refused extends IOException {
        public Refused(final String message) {
            super(message);
        }
    }

    private static final boolean AMD64 = "amd64".equals(System.getProperty("os.arch")) || "x86_64".equals(System.getProperty("os.arch"));
    private static final boolean AARCH64 = "aarch64".equals(System.getProperty("os.arch"));
    private static final int O_WRONLY = 01;
    private static final int O_CREAT = 0100;
    private static final int O_EXCL = 0200;
    private static final int O_TRUNC = 01000;
    private static final int O_NONBLOCK = 04000;
    private static final int O_CLOEXEC = 02000000;
    private static final int O_NOFOLLOW = AARCH64 ? 0100000 : 0400000;
    private static final long SYS_SETGROUPS = AMD64 ? 116 : AARCH64 ? 159 : -1;
    private static final int EEXIST = 17;
    private static final int ELOOP = 40;
    private static final int EACCES = 13;
    private static final int EPERM = 1;
    private static final int ENOENT = 2;
    private static final int ENXIO = 6;
    private static final int EISDIR = 21;
    private static final long OPEN_WITHIN_MS = 2_000;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIBC = LINKER.defaultLookup();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");
    private static final MethodHandle OPEN = LINKER.downcallHandle(LIBC.find("open").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT),
        CAPTURE_ERRNO, Linker.Option.firstVariadicArg(2));
    private static final MethodHandle FCHMOD = LINKER.downcallHandle(LIBC.find("fchmod").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final MethodHandle CLOSE = LINKER.downcallHandle(LIBC.find("close").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    /** glibc's setfsuid and setfsgid change the calling thread alone (unlike setuid and setgroups, which change all). */
    private static final MethodHandle SETFSUID = LINKER.downcallHandle(LIBC.find("setfsuid").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final MethodHandle SETFSGID = LINKER.downcallHandle(LIBC.find("setfsgid").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    /** The raw system call: this thread's groups only. */
    private static final MethodHandle SYSCALL = LINKER.downcallHandle(LIBC.find("syscall").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS),
        CAPTURE_ERRNO, Linker.Option.firstVariadicArg(1));
    private static final MethodHandle GETPWNAM = LINKER.downcallHandle(LIBC.find("getpwnam").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS));
    private static final MethodHandle GETGRNAM = LINKER.downcallHandle(LIBC.find("getgrnam").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS));
    /** struct passwd's pw_uid and struct group's gr_gid, after two pointers, on a 64-bit Linux. */
    private static final long ID_AFTER_TWO_POINTERS = 16;

    private CallerFiles() {
    }

    /** A user's id from the name the JDK gives a peer's credentials (the number itself when it has no name). */
    public static int userId(final String name) {
        return id(name, GETPWNAM);
    }

    /** A group's id, likewise. */
    public static int groupId(final String name) {
        return id(name, GETGRNAM);
    }

    private static synchronized int id(final String name, final MethodHandle lookup) {
        if (name.matches("[0-9]{1,10}")) {
            return Integer.parseUnsignedInt(name);
        }
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment entry = (MemorySegment) lookup.invokeExact(arena.allocateFrom(name));
            if (entry.equals(MemorySegment.NULL)) {
                throw new IllegalArgumentException("no user or group named '" + name + "'");
            }
            return entry.reinterpret(ID_AFTER_TWO_POINTERS + 4).get(ValueLayout.JAVA_INT, ID_AFTER_TWO_POINTERS);
        } catch (final IllegalArgumentException e) {
            throw e;
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * {@code file}, opened for writing as {@code caller}: made with mode 0600 and owned by the caller, or with
     * {@code overwrite} an existing regular file the caller may write, emptied.
     *
     * @throws Refused in one line when the caller may not, the name is a symbolic link, or it is not a regular file
     */
    public static FileChannel create(final Path file, final Caller caller, final boolean overwrite) throws Refused {
        if (!file.isAbsolute()) {
            throw new Refused(file + ": not an absolute path");
        }
        if (!caller.isRoot() && SYS_SETGROUPS < 0) {
            throw new Refused("files for users other than root are not supported on " + System.getProperty("os.arch"));
        }
        final CompletableFuture<FileChannel> opened = new CompletableFuture<>();
        final Thread opener = Thread.ofPlatform().daemon().name("trimswitch-open-as-" + caller.uid()).start(() -> {
            try {
                opened.complete(openAs(file, caller, overwrite));
            } catch (final Throwable e) {
                opened.completeExceptionally(e);
            }
        });
        try {
            return opened.get(OPEN_WITHIN_MS, TimeUnit.MILLISECONDS);
        } catch (final ExecutionException e) {
            if (e.getCause() instanceof Refused refused) {
                throw refused;
            }
            throw new Refused(file + ": " + e.getCause());
        } catch (final TimeoutException e) {
            opener.interrupt();
            throw new Refused(file + ": not opened within " + OPEN_WITHIN_MS + " ms");
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Refused(file + ": interrupted");
        }
    }

    /** On the opener's own thread: takes the caller's identity for the file system, opens, checks, reopens as a channel. */
    private static FileChannel openAs(final Path file, final Caller caller, final boolean overwrite) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment state = arena.allocate(CALL_STATE);
            if (!caller.isRoot()) {
                if ((long) SYSCALL.invokeExact(state, SYS_SETGROUPS, 0L, MemorySegment.NULL) != 0) {
                    throw new Refused("cannot drop the switch's groups to open " + file + " (errno " + (int) ERRNO.get(state, 0L) + ")");
                }
                final int ignoredGid = (int) SETFSGID.invokeExact(caller.gid());
                final int ignoredUid = (int) SETFSUID.invokeExact(caller.uid());
                // setfsuid returns the previous identity: asked again, it must be the caller's, or the change did not take.
                if ((int) SETFSUID.invokeExact(caller.uid()) != caller.uid() || (int) SETFSGID.invokeExact(caller.gid()) != caller.gid()) {
                    throw new Refused("cannot take user " + caller.uid() + "'s rights to open " + file);
                }
            }
            final int flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (overwrite ? O_TRUNC : O_EXCL);
            final int fd = (int) OPEN.invokeExact(state, arena.allocateFrom(file.toString()), flags, 0600);
            if (fd < 0) {
                throw new Refused(refusal(file, (int) ERRNO.get(state, 0L), caller));
            }
            try {
                final Path opened = Path.of("/proc/self/fd/" + fd);
                final PosixFileAttributes attributes = Files.readAttributes(opened, PosixFileAttributes.class);
                if (!attributes.isRegularFile()) {
                    throw new Refused(file + ": not a regular file");
                }
                // Whatever the umask: the caller's file, readable by the caller alone.
                final int ignored = (int) FCHMOD.invokeExact(fd, 0600);
                // The descriptor's own file, reopened as a channel: the name is not looked up again.
                return FileChannel.open(opened, StandardOpenOption.WRITE);
            } finally {
                final int ignored = (int) CLOSE.invokeExact(fd);
            }
        }
    }

    private static String refusal(final Path file, final int errno, final Caller caller) {
        final String who = caller.isRoot() ? "" : " for user " + caller.uid();
        return switch (errno) {
            case EEXIST -> file + ": exists; pick a new name, or add --overwrite to replace it";
            case ELOOP -> file + ": is a symbolic link; a capture is never written through one";
            case EACCES, EPERM -> file + ": permission denied" + who;
            case ENOENT -> file + ": no such directory";
            case ENXIO -> file + ": not a regular file (a FIFO no one reads?)";
            case EISDIR -> file + ": is a directory";
            default -> file + ": cannot open (errno " + errno + ")" + who;
        };
    }
}
