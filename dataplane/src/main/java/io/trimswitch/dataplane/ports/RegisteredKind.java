package io.trimswitch.dataplane.ports;

/**
 * A kind of port, found by its name through {@link PortKinds}: the interface ports' socket kinds ({@code af_packet},
 * {@code af_xdp}), the live switch's UDP/VXLAN ports ({@code udp}) and a real-time scenario's generated traffic
 * ({@code generated}). Each is a package of its own that nothing outside it names, registered by its class's name in
 * its module's {@code META-INF/services/io.trimswitch.dataplane.ports.RegisteredKind}.
 */
public interface RegisteredKind {
    /** The kind's name, as the settings, the start-up lines and the port views give it. */
    String name();
}
