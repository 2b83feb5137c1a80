package io.trimswitch.uet;

/** The flows a host's state machines serve: how many, and each one's length in packets. */
public interface UetFlows {
    int flows();

    int size(int flow);
}
