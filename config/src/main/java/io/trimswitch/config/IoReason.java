package io.trimswitch.config;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Why a file operation failed, in the system's words ("no such file or directory", "read-only file system"), for a
 * message that already names the file: Java's exceptions carry the path and their own class name instead.
 */
public final class IoReason {
    private IoReason() {
    }

    public static String of(final IOException failure) {
        if (failure instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason().toLowerCase(java.util.Locale.ROOT);
        }
        if (failure instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (failure instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (failure instanceof FileAlreadyExistsException) {
            return "a file of that name exists";
        }
        if (failure instanceof NotDirectoryException) {
            return "not a directory";
        }
        return failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
    }
}
