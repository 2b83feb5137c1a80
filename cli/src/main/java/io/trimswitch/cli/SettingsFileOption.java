package io.trimswitch.cli;

import io.trimswitch.config.SettingsFiles;
import io.trimswitch.config.SwitchSettings;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** The settings file of a command that runs the switch model, the same for {@code scenario} and {@code replay}. */
final class SettingsFileOption {
    @Option(names = "--config", paramLabel = "FILE",
        description = "Switch settings (YAML); the other options override them (default: the built-in 64 × 100 Gb/s switch)")
    Path file;

    /** The file's settings, or the defaults without one. */
    SwitchSettings load() {
        return file == null ? new SwitchSettings() : SettingsFiles.load(file);
    }

    boolean given() {
        return file != null;
    }
}
