package io.trimswitch.control;

import java.util.List;

/** What a control socket serves: one command, by its words, answered once. */
@FunctionalInterface
public interface ControlCommands {
    /**
     * Runs {@code words} (the command's name first) and returns what the client shows.
     *
     * @throws io.trimswitch.config.ConfigException in one line when the command or a value is refused; the switch goes on unchanged
     */
    ControlReply run(List<String> words);
}
