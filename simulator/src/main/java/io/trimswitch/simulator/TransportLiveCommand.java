package io.trimswitch.simulator;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/**
 * A transport's live command: its end hosts on the machine's own sockets, run from the command line (NDP's
 * {@code trimswitch host}). A transport registers one in its folder's
 * {@code META-INF/services/io.trimswitch.simulator.TransportLiveCommand}; the tool adds it as a subcommand under its
 * name, so that nothing outside the folder names the command or the hosts it runs.
 * <p>
 * The command is a picocli command object (a {@code Callable<Integer>} annotated with {@code @Command}): its call
 * returns 0 when the run did all it was asked and 1 when it ran but fell short ({@link #EXIT_FELL_SHORT}); bad input is
 * a {@link io.trimswitch.config.ConfigException}, which the tool prints in one line and exits 2 on, as for its own
 * commands.
 */
public interface TransportLiveCommand {
    /** The exit code of a run that ran but did not complete what it was asked: the tool's own for a failed run. */
    int EXIT_FELL_SHORT = 1;

    /** The subcommand's name, as a user types it after {@code trimswitch}. */
    String name();

    /** A new command object for picocli to parse the arguments into and run. */
    Object command();

    /** The live commands on the class path, by name. */
    static List<TransportLiveCommand> registered() {
        final List<TransportLiveCommand> found = new ArrayList<>();
        ServiceLoader.load(TransportLiveCommand.class, TransportLiveCommand.class.getClassLoader()).forEach(found::add);
        found.sort(Comparator.comparing(TransportLiveCommand::name));
        return found;
    }
}
