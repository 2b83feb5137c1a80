package io.trimswitch.control;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Settings;
import io.trimswitch.live.LiveSwitch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The commands of a running switch with two UDP ports on loopback: a change is checked whole before anything is applied,
 * applied only to keys that may change while it runs, and the settings in force say what was applied.
 */
class SwitchControlTest {
    @TempDir
    Path dir;
    private LiveSwitch live;
    private Settings reread;
    private int stops;

    private SwitchControl control() {
        final Settings settings = Settings.DEFAULTS.withFabric(x -> x.withPipelines(1).withPortsPerPipeline(2))
            .withRealtime(x -> x.withIdle(Settings.Idle.POLL))
            .withPorts(java.util.Collections.nCopies(2, Settings.Port.DEFAULTS.withBind("127.0.0.1:0").withRemote("127.0.0.1:9")))
            .withMetrics(x -> x.withCountersFile(dir.resolve("switch.counters").toString()));
        live = new LiveSwitch(settings);
        live.start();
        reread = live.settings();
        return new SwitchControl(live, () -> reread, () -> stops++);
    }

    @AfterEach
    void stop() {
        if (live != null) {
            live.stop();
        }
    }

    @Test
    void aKeyThatMayChangeWhileRunningIsAppliedAndShownInForce() {
        final SwitchControl control = control();
        assertEquals("set trim.sizeBytes: applied trim.sizeBytes", control.run(List.of("set", "trim.sizeBytes", "96")).text());
        assertTrue(control.run(List.of("show")).text().contains("sizeBytes: 96"), "shown in force");
    }

    @Test
    void aReloadThatChangesAKeyFixedWhileRunningIsRefusedWholeAndNothingIsApplied() {
        final SwitchControl control = control();
        reread = live.settings().withTrim(x -> x.withSizeBytes(96)).withFabric(x -> x.withDataQueuePackets(8));
        final ConfigException refused = assertThrows(ConfigException.class, () -> control.run(List.of("reload")));
        assertEquals("reload: fabric.dataQueuePackets cannot change while the switch runs (restart it for that); nothing was changed",
            refused.getMessage());
        assertTrue(!control.run(List.of("show")).text().contains("sizeBytes: 96"), "the trim size was applied all the same");
    }

    @Test
    void aRefusedReloadQuotesTheFileToRootOnlyAndTellsOthersTheLine() throws Exception {
        final SwitchControl control = control();
        final String secret = "root:*:20228:0:99999:7::";
        final java.util.function.Supplier<Settings> rootOnlyFile = () -> io.trimswitch.config.SettingsFiles.parse(secret + "\n", "/etc/sw.yaml");
        final SwitchControl pointedAway = new SwitchControl(live, rootOnlyFile, () -> stops++);
        final ConfigException toRoot = assertThrows(ConfigException.class, () -> pointedAway.run(List.of("reload")));
        assertTrue(toRoot.getMessage().contains("unknown key 'root:*:20228"), toRoot.getMessage());
        final io.trimswitch.interfaces.CallerFiles.Caller member = new io.trimswitch.interfaces.CallerFiles.Caller(65534, 65534);
        final ConfigException toMember = assertThrows(ConfigException.class,
            () -> ScopedValue.where(ControlCaller.CURRENT, member).call(() -> pointedAway.run(List.of("reload"))));
        assertEquals("reload: the settings file was refused at line 1 (the reason quotes the file, and only root is shown it:"
            + " run ctl reload as root to see it); nothing was changed", toMember.getMessage());
        // A value the switch refuses is named by its key alone; keys that cannot change while running are named as to root.
        reread = live.settings().withTrim(x -> x.withDscp(99));
        final ConfigException badValue = assertThrows(ConfigException.class,
            () -> ScopedValue.where(ControlCaller.CURRENT, member).call(() -> control.run(List.of("reload"))));
        assertTrue(badValue.getMessage().startsWith("reload: the settings file was refused at trim.dscp (") && !badValue.getMessage().contains("99"),
            badValue.getMessage());
        reread = live.settings().withFabric(x -> x.withDataQueuePackets(8));
        final ConfigException fixed = assertThrows(ConfigException.class,
            () -> ScopedValue.where(ControlCaller.CURRENT, member).call(() -> control.run(List.of("reload"))));
        assertEquals("reload: fabric.dataQueuePackets cannot change while the switch runs (restart it for that); nothing was changed",
            fixed.getMessage());
    }

    @Test
    void aPortThatIsNotAnInterfacePortCannotBeRemovedWhileRunning() {
        final SwitchControl control = control();
        final ConfigException refused = assertThrows(ConfigException.class, () -> control.run(List.of("del-port", "1")));
        assertEquals("del-port: port 1 is a UDP port; only interface ports are removed and added while the switch runs", refused.getMessage());
    }

    @Test
    void aPortNumberInAnotherScriptsDigitsIsRefusedNotReadAsThatPort() {
        final SwitchControl control = control();
        for (final String[] words : new String[][] {{"del-port", "\u0661"}, {"capture", "\uff11", "stop"}, {"add-port", "\u0662@veth9"}}) {
            final ConfigException refused = assertThrows(ConfigException.class, () -> control.run(List.of(words)));
            assertTrue(refused.getMessage().endsWith("must be a port number, got '" + words[1].split("@")[0] + "'"), refused.getMessage());
        }
    }

    @Test
    void anUnknownCommandIsRefusedInOneLineThatListsTheCommands() {
        final SwitchControl control = control();
        final ConfigException refused = assertThrows(ConfigException.class, () -> control.run(List.of("restart")));
        assertEquals("unknown command 'restart'; commands: " + SwitchControl.COMMANDS, refused.getMessage());
    }

    @Test
    void stopStopsTheSwitchAsSigtermDoes() {
        final SwitchControl control = control();
        assertEquals("stopping", control.run(List.of("stop")).text());
        assertEquals(1, stops);
    }
}
