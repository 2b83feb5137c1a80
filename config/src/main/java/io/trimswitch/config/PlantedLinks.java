package io.trimswitch.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;

/**
 * The rule the switch's own files follow (/run/trimswitch), for the files it reads as root: a symbolic link on the way
 * to a file is followed only where no other user could have placed it, that is a link owned by root (or this
 * process's user) in a directory no one else may write (or a sticky one, /tmp, whose links only their owner can
 * replace). A link a control-group member made in a folder the group may write, pointing at a root-only file, is
 * refused and nothing of that file is read.
 */
final class PlantedLinks {
    private static final int GROUP_OR_OTHER_WRITE = 0022;
    private static final int STICKY = 01000;

    private PlantedLinks() {
    }

    /**
     * Walks {@code file}'s path one name at a time, without following links, and checks each link on it.
     *
     * @return whether the last name is itself a link (checked, so the caller may follow it); a caller that gets false
     *         opens the file without following one, so that a link put there meanwhile is not followed either
     * @throws ConfigException in one line naming the link and who could have placed it
     */
    static boolean check(final Path file) {
        final Path absolute = file.toAbsolutePath();
        final int uid = io.trimswitch.dataplane.io.PrivateFiles.processUid();
        Path walked = absolute.getRoot();
        boolean link = false;
        try {
            for (final Path name : absolute) {
                final Path next = walked.resolve(name);
                final Map<String, Object> attributes = Files.readAttributes(next, "unix:uid,isSymbolicLink", LinkOption.NOFOLLOW_LINKS);
                link = (Boolean) attributes.get("isSymbolicLink");
                if (!link) {
                    walked = next;
                    continue;
                }
                final int owner = (Integer) attributes.get("uid");
                final int mode = (Integer) Files.getAttribute(walked, "unix:mode");
                if (owner != 0 && owner != uid) {
                    throw refused(file, next, "it belongs to user " + owner);
                }
                if ((mode & GROUP_OR_OTHER_WRITE) != 0 && (mode & STICKY) == 0) {
                    throw refused(file, next, "its directory is writable by others (mode " + String.format("%04o", mode & 07777) + ")");
                }
                walked = next.toRealPath();
            }
        } catch (final IOException e) {
            // Missing, or not to be looked at: the read that follows says so in its own words.
            return false;
        }
        return link;
    }

    private static ConfigException refused(final Path file, final Path link, final String why) {
        return new ConfigException(file + ": " + link + " is a symbolic link another user could have placed (" + why
            + "); name the file itself, or keep the link where only root may write");
    }
}
