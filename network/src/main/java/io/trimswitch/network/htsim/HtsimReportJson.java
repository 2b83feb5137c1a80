package io.trimswitch.network.htsim;

import io.trimswitch.network.NetworkReport;
import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.trimswitch.switching.report.RunReport;

import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * Writes an {@link HtsimReport} as the JSON that data binding writes for it (same keys, order, omitted nulls and
 * indentation), with the streaming generator alone: a 1024-host run then loads no serializers and introspects no
 * records, which would cost it more memory than the run itself leaves spare.
 */
public final class HtsimReportJson {
    private static final JsonFactory FACTORY = new JsonFactory();

    private HtsimReportJson() {
    }

    /** Writes one element of a list. */
    private interface Element<T> {
        void write(JsonGenerator out, T value) throws IOException;
    }

    /** The report's JSON, indented, without a final line break. */
    public static String toJson(final HtsimReport report) {
        final StringWriter text = new StringWriter();
        try (JsonGenerator out = FACTORY.createGenerator(text).useDefaultPrettyPrinter()) {
            report(out, report);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }

    /** Writes the report's JSON, UTF-8, to {@code stream}, which stays open. */
    public static void write(final OutputStream stream, final HtsimReport report) throws IOException {
        try (JsonGenerator out = FACTORY.createGenerator(stream, JsonEncoding.UTF8).useDefaultPrettyPrinter()) {
            out.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            report(out, report);
        }
    }

    private static void report(final JsonGenerator out, final HtsimReport r) throws IOException {
        out.writeStartObject();
        stringIfAny(out, "topology", r.topology());
        stringIfAny(out, "routing", r.routing());
        stringIfAny(out, "pattern", r.pattern());
        stringIfAny(out, "transport", r.transport());
        if (r.totals() != null) {
            totals(out, r.totals());
        }
        if (r.completionUs() != null) {
            final NetworkReport.Completion c = r.completionUs();
            out.writeObjectFieldStart("completionUs");
            out.writeNumberField("count", c.count());
            out.writeNumberField("incomplete", c.incomplete());
            out.writeNumberField("mean", c.mean());
            out.writeNumberField("p50", c.p50());
            out.writeNumberField("p90", c.p90());
            out.writeNumberField("p99", c.p99());
            out.writeNumberField("max", c.max());
            out.writeEndObject();
        }
        if (r.headerLatencyNs() != null) {
            final RunReport.Latency l = r.headerLatencyNs();
            out.writeObjectFieldStart("headerLatencyNs");
            out.writeNumberField("count", l.count());
            out.writeNumberField("mean", l.mean());
            out.writeNumberField("p50", l.p50());
            out.writeNumberField("p90", l.p90());
            out.writeNumberField("p99", l.p99());
            out.writeNumberField("max", l.max());
            out.writeEndObject();
        }
        if (r.tiers() != null) {
            list(out, "tiers", r.tiers(), HtsimReportJson::tier);
        }
        if (r.switches() != null) {
            list(out, "switches", r.switches(), HtsimReportJson::switchReport);
        }
        flowsIfAny(out, "flows", r.flows());
        if (r.run() != null) {
            final RunReport.RunInfo run = r.run();
            out.writeObjectFieldStart("run");
            stringIfAny(out, "clock", run.clock());
            out.writeNumberField("durationNs", run.durationNs());
            out.writeNumberField("lastPacketNs", run.lastPacketNs());
            out.writeNumberField("events", run.events());
            out.writeNumberField("inFlightAtEnd", run.inFlightAtEnd());
            out.writeNumberField("leakedBuffers", run.leakedBuffers());
            out.writeEndObject();
        }
        if (r.config() != null) {
            config(out, r.config());
        }
        flowsIfAny(out, "unfinished", r.unfinished());
        TransportSections.write(out, r.transportSections());
        out.writeEndObject();
    }

    private static void totals(final JsonGenerator out, final RunReport.Totals t) throws IOException {
        out.writeNumberField("sent", t.sent());
        out.writeNumberField("deliveredWhole", t.deliveredWhole());
        out.writeNumberField("deliveredHeader", t.deliveredHeader());
        out.writeNumberField("dropped", t.dropped());
        out.writeBooleanField("conservation", t.conservation());
        if (t.trims() != null) {
            trims(out, "trims", t.trims());
        }
        if (t.drops() != null) {
            counts(out, "drops", t.drops());
        }
        if (t.goodput() != null) {
            final RunReport.Goodput g = t.goodput();
            out.writeObjectFieldStart("goodput");
            out.writeNumberField("meanGbps", g.meanGbps());
            out.writeNumberField("minGbps", g.minGbps());
            out.writeNumberField("maxGbps", g.maxGbps());
            out.writeNumberField("jainFairness", g.jainFairness());
            out.writeEndObject();
        }
        if (t.flowsCompleted() != null) {
            out.writeNumberField("flowsCompleted", t.flowsCompleted().intValue());
        }
        if (t.control() != null) {
            out.writeObjectFieldStart("control");
            out.writeNumberField("sent", t.control().sent());
            out.writeNumberField("delivered", t.control().delivered());
            out.writeNumberField("dropped", t.control().dropped());
            out.writeEndObject();
        }
    }

    /** Trims leave out their ideal reference when it is null; a tier or switch without trims writes null. */
    private static void trims(final JsonGenerator out, final String name, final RunReport.Trims t) throws IOException {
        out.writeFieldName(name);
        if (t == null) {
            out.writeNull();
            return;
        }
        out.writeStartObject();
        out.writeNumberField("ingress", t.ingress());
        out.writeNumberField("dod", t.dod());
        out.writeNumberField("mirror", t.mirror());
        out.writeNumberField("ideal", t.ideal());
        out.writeNumberField("total", t.total());
        if (t.idealReference() != null) {
            out.writeNumberField("idealReference", t.idealReference().longValue());
        }
        if (t.relativeToIdeal() != null) {
            out.writeNumberField("relativeToIdeal", t.relativeToIdeal().doubleValue());
        }
        out.writeEndObject();
    }

    private static void counts(final JsonGenerator out, final String name, final Map<String, Long> counts) throws IOException {
        out.writeFieldName(name);
        if (counts == null) {
            out.writeNull();
            return;
        }
        out.writeStartObject();
        for (final Map.Entry<String, Long> count : counts.entrySet()) {
            out.writeFieldName(count.getKey());
            if (count.getValue() == null) {
                out.writeNull();
            } else {
                out.writeNumber(count.getValue().longValue());
            }
        }
        out.writeEndObject();
    }

    private static void tier(final JsonGenerator out, final NetworkReport.TierReport t) throws IOException {
        out.writeStartObject();
        out.writeStringField("tier", t.tier());
        out.writeStringField("mechanism", t.mechanism());
        out.writeNumberField("switches", t.switches());
        trims(out, "trims", t.trims());
        counts(out, "drops", t.drops());
        out.writeNumberField("dodDeflections", t.dodDeflections());
        out.writeNumberField("maxDodQueue", t.maxDodQueue());
        out.writeNumberField("maxDataQueue", t.maxDataQueue());
        out.writeNumberField("maxHeaderQueue", t.maxHeaderQueue());
        out.writeNumberField("maxUtilisation", t.maxUtilisation());
        out.writeEndObject();
    }

    private static void switchReport(final JsonGenerator out, final NetworkReport.SwitchReport s) throws IOException {
        out.writeStartObject();
        out.writeStringField("name", s.name());
        out.writeStringField("tier", s.tier());
        out.writeStringField("mechanism", s.mechanism());
        trims(out, "trims", s.trims());
        counts(out, "drops", s.drops());
        list(out, "pipelines", s.pipelines(), (o, p) -> {
            out.writeStartObject();
            out.writeNumberField("id", p.id());
            out.writeNumberField("dodDeflections", p.dodDeflections());
            out.writeNumberField("maxDodQueue", p.maxDodQueue());
            out.writeNumberField("dodOverflows", p.dodOverflows());
            out.writeNumberField("signals", p.signals());
            out.writeNumberField("mirrored", p.mirrored());
            out.writeNumberField("maxMirrorQueue", p.maxMirrorQueue());
            out.writeNumberField("mirrorOverflows", p.mirrorOverflows());
            out.writeEndObject();
        });
        list(out, "ports", s.ports(), HtsimReportJson::port);
        out.writeFieldName("links");
        if (s.links() == null) {
            out.writeNull();
        } else {
            out.writeStartObject();
            for (final Map.Entry<Integer, String> link : s.links().entrySet()) {
                out.writeStringField(String.valueOf(link.getKey()), link.getValue());
            }
            out.writeEndObject();
        }
        out.writeEndObject();
    }

    /** A port leaves out its queues when it has no traffic classes, and its untrimmable IPv6 count when it is 0. */
    private static void port(final JsonGenerator out, final RunReport.PortReport p) throws IOException {
        out.writeStartObject();
        out.writeNumberField("id", p.id());
        out.writeNumberField("rxPackets", p.rxPackets());
        out.writeNumberField("txPackets", p.txPackets());
        out.writeNumberField("txBytes", p.txBytes());
        out.writeNumberField("trimPackets", p.trimPackets());
        out.writeNumberField("txTrimPackets", p.txTrimPackets());
        out.writeNumberField("droppedTrimPackets", p.droppedTrimPackets());
        out.writeNumberField("maxDataQueue", p.maxDataQueue());
        out.writeNumberField("maxHeaderQueue", p.maxHeaderQueue());
        out.writeNumberField("utilisation", p.utilisation());
        list(out, "stateTimeNs", p.stateTimeNs(), (o, s) -> {
            out.writeStartObject();
            out.writeNumberField("pipeline", s.pipeline());
            out.writeNumberField("pessimistic", s.pessimistic());
            out.writeNumberField("halftimistic", s.halftimistic());
            out.writeNumberField("notifications", s.notifications());
            out.writeEndObject();
        });
        if (p.queues() != null) {
            list(out, "queues", p.queues(), (o, q) -> {
                out.writeStartObject();
                out.writeNumberField("queue", q.queue());
                out.writeStringField("discard", q.discard());
                out.writeNumberField("queued", q.queued());
                out.writeNumberField("maxDepth", q.maxDepth());
                out.writeNumberField("overflowed", q.overflowed());
                out.writeEndObject();
            });
        }
        if (p.untrimmableIpv6() != 0) {
            out.writeNumberField("untrimmableIpv6", p.untrimmableIpv6());
        }
        out.writeEndObject();
    }

    private static void flowsIfAny(final JsonGenerator out, final String name, final List<HtsimReport.Flow> flows) throws IOException {
        if (flows == null) {
            return;
        }
        out.writeArrayFieldStart(name);
        for (final HtsimReport.Flow f : flows) {
            out.writeStartObject();
            out.writeNumberField("src", f.src());
            out.writeNumberField("dst", f.dst());
            if (f.id() != null) {
                out.writeNumberField("id", f.id().intValue());
            }
            out.writeNumberField("sizeBytes", f.sizeBytes());
            times(out, f.startUs(), f.finishUs(), f.fctUs());
            out.writeNumberField("sent", f.sent());
            out.writeNumberField("whole", f.whole());
            out.writeNumberField("headers", f.headers());
            out.writeNumberField("dropped", f.dropped());
            if (f.retransmissions() != null) {
                out.writeNumberField("retransmissions", f.retransmissions().longValue());
            }
            if (f.messages() != null) {
                out.writeArrayFieldStart("messages");
                for (final HtsimReport.Message m : f.messages()) {
                    out.writeStartObject();
                    out.writeNumberField("sizeBytes", m.sizeBytes());
                    times(out, m.startUs(), m.finishUs(), m.fctUs());
                    out.writeEndObject();
                }
                out.writeEndArray();
            }
            out.writeEndObject();
        }
        out.writeEndArray();
    }

    private static void times(final JsonGenerator out, final Double startUs, final Double finishUs, final Double fctUs) throws IOException {
        if (startUs != null) {
            out.writeNumberField("startUs", startUs.doubleValue());
        }
        if (finishUs != null) {
            out.writeNumberField("finishUs", finishUs.doubleValue());
        }
        if (fctUs != null) {
            out.writeNumberField("fctUs", fctUs.doubleValue());
        }
    }

    private static void config(final JsonGenerator out, final HtsimExperiment e) throws IOException {
        out.writeObjectFieldStart("config");
        out.writeStringField("topologyFile", e.getTopologyFile());
        out.writeStringField("matrixFile", e.getMatrixFile());
        out.writeNumberField("nodes", e.getNodes());
        out.writeNumberField("tiers", e.getTiers());
        out.writeStringField("torMechanism", e.getTorMechanism());
        out.writeStringField("aggMechanism", e.getAggMechanism());
        out.writeStringField("coreMechanism", e.getCoreMechanism());
        out.writeNumberField("mtu", e.getMtu());
        out.writeNumberField("queuePackets", e.getQueuePackets());
        out.writeNumberField("initialWindowPackets", e.getInitialWindowPackets());
        out.writeNumberField("paths", e.getPaths());
        out.writeStringField("routing", e.getRouting());
        out.writeNumberField("failedLinks", e.getFailedLinks());
        out.writeNumberField("seed", e.getSeed());
        out.writeNumberField("rtoUs", e.getRtoUs());
        out.writeNumberField("maxDurationUs", e.getMaxDurationUs());
        out.writeEndObject();
    }

    /** A list, or null: a property without an inclusion rule writes its null. */
    private static <T> void list(final JsonGenerator out, final String name, final List<T> values, final Element<T> element) throws IOException {
        out.writeFieldName(name);
        if (values == null) {
            out.writeNull();
            return;
        }
        out.writeStartArray();
        for (final T value : values) {
            element.write(out, value);
        }
        out.writeEndArray();
    }

    private static void stringIfAny(final JsonGenerator out, final String name, final String value) throws IOException {
        if (value != null) {
            out.writeStringField(name, value);
        }
    }
}
