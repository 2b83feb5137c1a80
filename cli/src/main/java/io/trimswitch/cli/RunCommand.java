package io.trimswitch.cli;

import io.trimswitch.config.ConfigException;
import io.trimswitch.live.settings.LiveSettings;
import io.trimswitch.config.Settings;
import io.trimswitch.config.SettingsFiles;
import io.trimswitch.live.LiveSwitch;
import io.trimswitch.live.SwitchMetrics;
import io.trimswitch.control.ControlPaths;
import io.trimswitch.control.ControlSocket;
import io.trimswitch.control.SwitchControl;
import io.trimswitch.sonic.ConfigDb;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** {@code trimswitch run}: the switch on this host, its ports Linux interfaces or UDP/VXLAN endpoints, until SIGINT or SIGTERM. */
@Command(
    addMethodSubcommands = false,
    name = "run",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Runs the switch on this host, its ports on Linux interfaces or UDP/VXLAN endpoints, until stopped.",
        "A port sits on a Linux interface (-i 0@veth0: a veth, a NIC), or is a UDP endpoint carrying VXLAN (ports[].bind in the config), to which a Linux host attaches with a vxlan interface; both kinds may mix.",
        "Stops cleanly on SIGTERM, SIGINT, SIGHUP or SIGALRM (exit 0); ignores SIGUSR1. Live counters: 'trimswitch stats' (from the counters file), or Prometheus at metrics.address."})
public final class RunCommand implements java.util.concurrent.Callable<Integer> {
    /** A year: longer is "until stopped", which is what leaving the option out says. */
    private static final double MAX_DURATION_SECONDS = 365 * 86_400;
    /** How often the main thread looks for a failed thread while the switch runs. */
    private static final long CHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE",
        description = "The switch: ports, forwarding, queues, meters, T0/T1 (YAML). Without it: the defaults, l2 forwarding, and the -i ports")
    Path config;

    @Option(names = {"-i", "--interface"}, paramLabel = "PORT@IFACE[:KIND]",
        description = "Port PORT sits on Linux interface IFACE (repeat it: -i 0@veth0 -i 1@veth1:af_xdp), read and sent as KIND (af_packet or af_xdp; default: --port-kind); over the config's ports[PORT] if it has one (default: the config's ports)")
    java.util.List<String> interfaces = new java.util.ArrayList<>();

    @Option(names = "--port-kind", paramLabel = "KIND",
        description = "How interface ports read and send: af_packet (an AF_PACKET ring) or af_xdp (an AF_XDP socket fed by an XDP program); -i PORT@IFACE:KIND for one port. Default: the config's realtime.portKind, else af_packet")
    String portKind;

    @Option(names = "--idle", paramLabel = "MODE",
        description = "What a pipeline thread does with nothing to forward: poll (polls while turns find work, then sleeps until a port has a frame: see --poll-after-traffic-us; an idle switch takes no core), busy-spin (lowest latency, a core always, for benchmarks), yield, backoff or sleep. Default: the config's realtime.idle, else poll")
    String idle;

    @Option(names = "--poll-after-traffic-us", paramLabel = "US",
        description = "With --idle poll: how long a thread keeps polling after the last frame before it sleeps, 0 to 1000000 µs; 0 sleeps at once, less CPU per frame at a steady load for a wake-up's latency. Default: the config's realtime.pollAfterTrafficUs, else 10000 for a thread with a UDP port, and for one whose ports are all interface ports (frames timed by the kernel's receive stamp) none: it sleeps once a turn finds nothing, polling 100 µs for the answer to a frame after 1 ms of quiet")
    Integer pollAfterTrafficUs;

    @Option(names = "--config-db", paramLabel = "FILE",
        description = "A SONiC config_db.json: its SWITCH_TRIMMING, QoS map, buffer, scheduler and queue tables, applied over the config (default: none)")
    Path configDb;

    @Option(names = "--metrics", paramLabel = "HOST:PORT|off", description = "Where the Prometheus endpoint listens (default: the config's metrics.address, 127.0.0.1:9464)")
    String metrics;

    @Option(names = "--counters", paramLabel = "FILE",
        description = "The memory-mapped file of the switch's counters, which 'trimswitch stats' reads and the switch deletes when it stops (default: the config's metrics.countersFile, /run/trimswitch/trimswitch-NETNS.counters with NETNS this network namespace's inode)")
    Path counters;

    @Option(names = "--control", paramLabel = "SOCKET|off",
        description = "The control socket 'trimswitch ctl' talks to (default: /run/trimswitch/NAME.ctl, NAME the counters file's name without .counters)")
    String control;

    @Option(names = "--duration-s", paramLabel = "S", description = "Stop by itself after S seconds (default: run until stopped)")
    Double durationSeconds;

    @Override
    public Integer call() throws InterruptedException {
        if (config == null && interfaces.isEmpty()) {
            throw new ConfigException("run needs ports: -i 0@veth0 -i 1@veth1 ..., or --config FILE with ports");
        }
        if (control != null && control.isBlank()) {
            throw new ConfigException("--control must name a socket or be off, got an empty name");
        }
        if (durationSeconds != null && !(durationSeconds > 0 && durationSeconds <= MAX_DURATION_SECONDS)) {
            throw new ConfigException("--duration-s must be above 0 and at most " + (long) MAX_DURATION_SECONDS + " (leave it out to run until stopped), got " + durationSeconds);
        }
        final Settings settings = settings();
        final LiveSwitch live = new LiveSwitch(settings);
        final InetSocketAddress metricsAddress = LiveSettings.metricsAddress(live.settings());
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final LinkLines linkLines = new LinkLines(out);
        live.logLinksTo(linkLines);
        final CountDownLatch stopRequested = new CountDownLatch(1);
        final CountDownLatch stopped = new CountDownLatch(1);
        final int[] exitCode = {0};
        final Thread hook = new Thread(() -> {
            stopRequested.countDown();
            try {
                if (stopped.await(10, TimeUnit.SECONDS)) {
                    // SIGTERM, SIGINT or SIGHUP asked for the clean stop that just ended: its status is the run's, not 128 + the signal.
                    Runtime.getRuntime().halt(exitCode[0]);
                }
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "trimswitch-stop");
        // From here on a signal stops the switch cleanly, even one that comes while it starts.
        Runtime.getRuntime().addShutdownHook(hook);
        StopSignals.install(stopRequested::countDown);
        try {
            live.start();
        } catch (final IllegalStateException e) {
            live.stop();
            exitCode[0] = TrimswitchCommand.EXIT_USAGE;
            stopped.countDown();
            removeHook(hook, stopRequested);
            throw new ConfigException(e.getMessage());
        }
        SwitchMetrics endpoint = null;
        ControlSocket controlSocket = null;
        boolean announced = false;
        try {
            if (metricsAddress != null) {
                try {
                    endpoint = new SwitchMetrics(live, metricsAddress);
                } catch (final IOException e) {
                    throw new ConfigException("metrics.address " + metricsAddress + ": cannot listen: " + e.getMessage()
                        + (String.valueOf(e.getMessage()).contains("in use") ? "; a second switch in this network namespace needs its own"
                        + " --counters FILE and --metrics HOST:PORT (or off)" : ""));
                }
            }
            if (!"off".equals(control)) {
                final Path socket = control != null ? Path.of(control) : ControlPaths.forCounters(LiveSettings.countersFile(live.settings()));
                controlSocket = ControlSocket.open(socket, live.settings().metrics().controlGroup(),
                    new SwitchControl(live, this::settings, stopRequested::countDown));
            }
            out.printf("trimswitch: running %d port%s, forwarding %s, mechanism %s%s%n", live.settings().ports().size(),
                live.settings().ports().size() == 1 ? "" : "s", live.settings().forwarding().mode().label(), live.settings().mechanism().label(),
                endpoint == null ? "" : ", metrics http://" + metricsAddress.getAddress().getHostAddress() + ":" + endpoint.port() + "/metrics");
            live.describePorts().forEach(line -> out.println("trimswitch: " + line));
            if (controlSocket != null) {
                out.println("trimswitch: control socket " + controlSocket.path()
                    + (controlSocket.replacedStale() ? " (replaced one a stopped switch left)" : ""));
            }
            if (live.counters().replacedOwner() > 0) {
                out.printf("trimswitch: replaced the counters a dead switch (process %d) left at %s%n", live.counters().replacedOwner(),
                    live.counters().file());
            }
            out.flush();
            announced = true;
            linkLines.afterStart();
            final long deadline = durationSeconds == null ? Long.MAX_VALUE : System.nanoTime() + (long) (durationSeconds * 1e9);
            // Once a second is often enough to notice a failed thread, and an idle switch wakes no more than that.
            while (!stopRequested.await(durationSeconds == null ? CHECK_NANOS : Math.max(1, Math.min(CHECK_NANOS, deadline - System.nanoTime())),
                TimeUnit.NANOSECONDS) && System.nanoTime() < deadline) {
                if (live.fault() != null) {
                    err.println("trimswitch: " + live.fault().getMessage());
                    exitCode[0] = TrimswitchCommand.EXIT_RUN_FAILED;
                    return exitCode[0];
                }
            }
            return 0;
        } catch (final RuntimeException e) {
            exitCode[0] = TrimswitchCommand.EXIT_USAGE;
            throw e;
        } finally {
            if (controlSocket != null) {
                controlSocket.close();
            }
            if (endpoint != null) {
                endpoint.close();
            }
            live.stop();
            for (final String thread : live.notStopped()) {
                err.printf("trimswitch: thread %s did not end within %d ms of stop (blocked in a call); it ends with the process, its ports with it%n",
                    thread, LiveSwitch.STOP_WITHIN_MILLIS);
            }
            err.flush();
            if (announced) {
                // A switch that never said it runs has nothing inside to count.
                out.printf("trimswitch: stopped; %d packets still inside were counted as dropped (inFlightAtEnd)%n", live.inFlightAtStop());
            }
            out.flush();
            stopped.countDown();
            removeHook(hook, stopRequested);
        }
    }

    /** Unless a signal started the shutdown already (then the hook ends the process with the run's status). */
    private static void removeHook(final Thread hook, final CountDownLatch stopRequested) {
        if (stopRequested.getCount() > 0) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (final IllegalStateException e) {
                // Shutting down meanwhile: the hook runs and ends the process.
            }
        }
    }

    /**
     * The lines that tell of the ports' links, from the ports' threads: those that come while the switch starts (the
     * kernel's first word on each link) are held until the switch has said it runs and listed its ports, so that what
     * it says reads in order.
     */
    private static final class LinkLines implements java.util.function.Consumer<String> {
        private final PrintWriter out;
        private final java.util.List<String> early = new java.util.ArrayList<>();
        private boolean started;

        LinkLines(final PrintWriter out) {
            this.out = out;
        }

        @Override
        public synchronized void accept(final String line) {
            if (!started) {
                early.add(line);
                return;
            }
            out.println("trimswitch: " + line);
            out.flush();
        }

        synchronized void afterStart() {
            started = true;
            early.forEach(line -> out.println("trimswitch: " + line));
            early.clear();
            out.flush();
        }
    }

    /** The switch's settings from the config file and the command line: at start, and again for {@code ctl reload}. */
    private Settings settings() {
        Settings settings = InterfaceOptions.apply(interfaces, config == null ? Settings.DEFAULTS : SettingsFiles.load(config));
        settings = LiveSettings.withLiveDefaults(settings, idle != null || config != null && SettingsFiles.writes(config, "realtime", "idle"));
        if (idle != null) {
            final Settings.Idle waiting = Settings.choice("realtime.idle", idle, Settings.Idle.values());
            settings = settings.withRealtime(r -> r.withIdle(waiting));
        }
        if (pollAfterTrafficUs != null) {
            if (pollAfterTrafficUs < 0 || pollAfterTrafficUs > 1_000_000) {
                throw new ConfigException("--poll-after-traffic-us must be 0..1000000, got " + pollAfterTrafficUs + " (realtime.pollAfterTrafficUs)");
            }
            settings = settings.withRealtime(r -> r.withPollAfterTrafficUs(pollAfterTrafficUs));
        }
        if (portKind != null) {
            settings = settings.withRealtime(r -> r.withPortKind(portKind));
        }
        if (configDb != null) {
            settings = ConfigDb.apply(configDb, settings);
        }
        if (metrics != null) {
            settings = settings.withMetrics(m -> m.withAddress("off".equals(metrics) ? null : metrics));
        }
        if (counters != null) {
            settings = settings.withMetrics(m -> m.withCountersFile(counters.toString()));
        }
        return settings;
    }
}
