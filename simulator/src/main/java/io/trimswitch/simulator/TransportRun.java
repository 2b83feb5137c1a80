package io.trimswitch.simulator;

import java.util.function.Consumer;
import java.util.function.Function;

/** A transport's part of one run: its hosts, what they need of the switches once built, and its section of the report. */
public interface TransportRun {
    TransportHosts hosts();

    /** The most packets one flow keeps in flight: what the buffer pool is sized for. */
    int windowPackets();

    /** Sets up in the built switches what the hosts rely on (ECN marking, for one). */
    default void switchesBuilt(final VirtualTimeEngine engine) {
    }

    /** The transport's section of the report after a run, written under its name; null: none. */
    default Object report(final VirtualTimeEngine engine) {
        return null;
    }

    /** A run made of its parts: hooks left null do nothing. */
    record Parts(TransportHosts hosts, int windowPackets, Consumer<VirtualTimeEngine> onSwitchesBuilt, Function<VirtualTimeEngine, Object> section)
        implements TransportRun {
        @Override
        public void switchesBuilt(final VirtualTimeEngine engine) {
            if (onSwitchesBuilt != null) {
                onSwitchesBuilt.accept(engine);
            }
        }

        @Override
        public Object report(final VirtualTimeEngine engine) {
            return section == null ? null : section.apply(engine);
        }
    }
}
