package io.trimswitch.cli;

import io.trimswitch.config.ConfigDb;
import io.trimswitch.config.SettingsFiles;
import io.trimswitch.config.SwitchSettings;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** The settings files of a command that runs the switch model, the same for {@code scenario} and {@code replay}. */
final class SettingsFileOption {
    @Option(names = "--config", paramLabel = "FILE",
        description = "Switch settings (YAML); the other options override them (default: the built-in 64 × 100 Gb/s switch)")
    Path file;

    @Option(names = "--config-db", paramLabel = "FILE",
        description = "A SONiC config_db.json: its SWITCH_TRIMMING, QoS map, buffer, scheduler and queue tables, applied over the settings")
    Path configDb;

    /** The file's settings (or the defaults without one), with the config_db's tables applied over them. */
    SwitchSettings load() {
        final SwitchSettings settings = file == null ? new SwitchSettings() : SettingsFiles.load(file);
        if (configDb != null) {
            ConfigDb.apply(configDb, settings);
        }
        return settings;
    }

    boolean given() {
        return file != null;
    }
}
