package io.trimswitch.cli;

import io.trimswitch.config.SettingsFiles;
import io.trimswitch.config.Settings;
import io.trimswitch.sonic.ConfigDb;
import picocli.CommandLine.Model.OptionSpec;

import java.nio.file.Path;

/** The settings files of a command that runs the switch model, the same for {@code scenario} and {@code replay}. */
final class SettingsFileOption extends OptionGroup {
    private final OptionSpec file = option("--config", "FILE", Path.class,
        "Switch settings (YAML); the other options override them (default: the built-in 64 × 100 Gb/s switch)");

    private final OptionSpec configDb = option("--config-db", "FILE", Path.class,
        "A SONiC config_db.json: its SWITCH_TRIMMING, QoS map, buffer, scheduler and queue tables, applied over the settings (default: none)");

    /** The file's settings (or the defaults without one), with the config_db's tables applied over them. */
    Settings load() {
        final Path settingsFile = file.getValue();
        final Path tables = configDb.getValue();
        final Settings settings = settingsFile == null ? Settings.DEFAULTS : SettingsFiles.load(settingsFile);
        return tables == null ? settings : ConfigDb.apply(tables, settings);
    }

    boolean given() {
        return file.getValue() != null;
    }
}
