package io.trimswitch.realtime;

import io.trimswitch.config.Settings;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;


import java.util.ArrayList;
import java.util.List;

/**
 * Which agents share a thread. On a host with a core per agent each gets its own ({@code per-agent});
 * on a small host they are grouped: {@code split} puts the ports and ingress pipelines on one thread and
 * the egress groups and recirculation ports on another, so the two halves of the switch each have a core.
 * With {@code single}, one thread runs them all, and keeps them in virtual time's order: before a pipeline
 * meters a packet, recirculation and egress are brought up to its arrival.
 */
final class AgentPlacement {
    /** One thread's agents, and the name its thread takes. */
    record ThreadPlan(String name, Agent agent, int agents) {
    }

    private AgentPlacement() {
    }

    static List<ThreadPlan> place(
        final Settings.Placement placement, final Agent ports, final List<? extends Agent> ingress, final List<? extends Agent> egress,
        final List<? extends Agent> recirculation) {
        final List<List<Agent>> groups = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        // Sockets bring their own I/O thread: then there is no ports agent.
        final List<Agent> portsAgent = ports == null ? List.of() : List.of(ports);
        switch (placement) {
            case SINGLE:
                // Recirculation before egress: a header back from its loop is in its queue when egress chooses.
                groups.add(concat(portsAgent, ingress, recirculation, egress));
                names.add("switch");
                break;
            case SPLIT:
                groups.add(concat(portsAgent, ingress));
                names.add(ports == null ? "ingress" : "ports+ingress");
                groups.add(concat(recirculation, egress));
                names.add("egress+recirculation");
                break;
            case PER_ROLE:
                if (ports != null) {
                    groups.add(List.of(ports));
                    names.add("ports");
                }
                groups.add(concat(ingress));
                names.add("ingress");
                groups.add(concat(egress));
                names.add("egress");
                if (!recirculation.isEmpty()) {
                    groups.add(concat(recirculation));
                    names.add("recirculation");
                }
                break;
            case PER_AGENT:
                for (final Agent agent : concat(portsAgent, ingress, egress, recirculation)) {
                    groups.add(List.of(agent));
                    names.add(agent.roleName());
                }
                break;
            default:
                throw new IllegalStateException("placement " + placement);
        }
        final List<ThreadPlan> plans = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
            final List<Agent> group = groups.get(i);
            plans.add(new ThreadPlan("trimswitch-" + names.get(i), group.size() == 1 ? group.get(0) : new CompositeAgent(group), group.size()));
        }
        return plans;
    }

    @SafeVarargs
    private static List<Agent> concat(final List<? extends Agent>... lists) {
        final List<Agent> all = new ArrayList<>();
        for (final List<? extends Agent> list : lists) {
            all.addAll(list);
        }
        return all;
    }

    /** A fresh idle strategy per thread: they keep state. */
    static IdleStrategy idleStrategy(final Settings.Idle idle) {
        switch (idle) {
            case BUSY_SPIN:
                return new BusySpinIdleStrategy();
            case YIELD:
                return new YieldingIdleStrategy();
            case BACKOFF:
            case POLL:
                // Only the live switch's threads can sleep in epoll_wait; agents without sockets back off.
                return new BackoffIdleStrategy();
            case SLEEP:
                return new SleepingIdleStrategy();
            default:
                throw new IllegalStateException("idle " + idle);
        }
    }
}
