package io.trimswitch.ndp.live;

import io.trimswitch.simulator.TransportLiveCommand;

/** NDP's live command, {@code trimswitch host}, registered for the tool to add by its name. */
public final class NdpLiveCommand implements TransportLiveCommand {
    @Override
    public String name() {
        return NdpHostCommand.NAME;
    }

    @Override
    public Object command() {
        return new NdpHostCommand();
    }
}
