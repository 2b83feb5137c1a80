package io.trimswitch.config;

/**
 * Value filters for {@code @JsonInclude}: a setting is left out of a written report while it has its default, so that
 * reports from before the setting existed stay as they were.
 */
final class ReportedDefaults {
    private ReportedDefaults() {
    }

    /** Leaves {@code qos} out of a written report while it has no queues, so the reproduced switch's reports stay as they were. */
    static final class NoQueues {
        @Override
        public boolean equals(final Object value) {
            return value instanceof SwitchSettings.Qos qos && qos.queues().isEmpty() && qos.dscpToTc().isEmpty() && qos.tcToQueue().isEmpty() && qos.trimmedQueue() == null;
        }

        @Override
        public int hashCode() {
            return 1;
        }
    }

    /** Leaves {@code control.loop} out of a written report while it is the paper's. */
    static final class PaperLoop extends AtDefault {
        PaperLoop() {
            super(SettingsChoices.Loop.PAPER);
        }
    }

    /** Leaves {@code control.staleStages} out of a written report while it has its default. */
    static final class FourStages extends AtDefault {
        FourStages() {
            super(4);
        }
    }

    /** Leaves {@code realtime.pipelineThreads} out of a written report while it has its default. */
    static final class OneThread extends AtDefault {
        OneThread() {
            super(1);
        }
    }

    /** Leaves {@code realtime.udpGso} out of a written report while it has its default. */
    static final class GsoOn extends AtDefault {
        GsoOn() {
            super(true);
        }
    }

    /** Leaves {@code realtime.portKind} out of a written report while it is AF_PACKET. */
    static final class PacketKind extends AtDefault {
        PacketKind() {
            super(RealTimeSettings.RealTime.DEFAULT_PORT_KIND);
        }
    }

    /** Leaves {@code forwarding.macTableSize} out of a written report while it is the default. */
    static final class DefaultMacTable extends AtDefault {
        DefaultMacTable() {
            super(RealTimeSettings.Forwarding.DEFAULT_MAC_TABLE_SIZE);
        }
    }

    /**
     * A value filter for {@code @JsonInclude}: the setting is left out of a written report while it equals its default,
     * so that reports from before the setting existed stay as they were. Jackson makes one per setting, hence a subclass
     * per default.
     */
    abstract static class AtDefault {
        private final Object defaultValue;

        AtDefault(final Object defaultValue) {
            this.defaultValue = defaultValue;
        }

        @Override
        public boolean equals(final Object value) {
            return defaultValue.equals(value);
        }

        @Override
        public int hashCode() {
            return 1;
        }
    }
}
