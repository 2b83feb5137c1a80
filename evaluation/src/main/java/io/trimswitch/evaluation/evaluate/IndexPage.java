package io.trimswitch.evaluation.evaluate;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A static page that shows every figure with its caption and links to its data. */
final class IndexPage {
    private IndexPage() {
    }

    static String render(final Map<Experiment, List<Figure>> figures, final String summaryMarkdown, final List<Evaluation.Timing> timings) {
        final StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>trimswitch evaluation</title>\n")
            .append("<style>body{font-family:sans-serif;max-width:1200px;margin:2em auto;color:#222}")
            .append("figure{margin:2em 0}img{max-width:100%;border:1px solid #eee}figcaption{color:#444;margin-top:.5em}")
            .append("table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:right}")
            .append("td:first-child,th:first-child,td:nth-child(3),td:nth-child(4){text-align:left}</style></head><body>\n")
            .append("<h1>trimswitch evaluation</h1>\n<p>Every run is in virtual time: the same command gives the same figures. ")
            .append("One JSON per run is under <a href=\"runs/\">runs/</a>.</p>\n");
        if (summaryMarkdown != null) {
            html.append("<h2>Summary</h2>\n<p>Per workload and mechanism, against the ideal switch on the same workload ")
                .append("(<a href=\"summary.md\">summary.md</a>, <a href=\"summary.json\">summary.json</a>).</p>\n")
                .append(markdownTable(summaryMarkdown));
        }
        for (final Map.Entry<Experiment, List<Figure>> experiment : figures.entrySet()) {
            for (final Figure figure : experiment.getValue()) {
                html.append("<figure><h2>").append(escape(figure.title())).append("</h2>\n<img src=\"").append(figure.png())
                    .append("\" alt=\"").append(escape(figure.title())).append("\">\n<figcaption>").append(escape(figure.caption()))
                    .append("<br>");
                for (final String svg : figure.svgs()) {
                    html.append("<a href=\"").append(svg).append("\">").append(svg).append("</a> ");
                }
                for (final String data : figure.data()) {
                    html.append("· <a href=\"").append(data).append("\">").append(data).append("</a> ");
                }
                html.append("</figcaption></figure>\n");
            }
        }
        html.append("<h2>Timings</h2>\n<table><tr><th>experiment</th><th>runs</th><th>seconds</th></tr>\n");
        for (final Evaluation.Timing timing : timings) {
            html.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%d</td><td>%.1f</td></tr>%n", timing.experiment(), timing.runs(), timing.seconds()));
        }
        return html.append("</table>\n</body></html>\n").toString();
    }

    private static String markdownTable(final String markdown) {
        final StringBuilder html = new StringBuilder("<table>\n");
        final String[] lines = markdown.strip().split("\n");
        for (int i = 0; i < lines.length; i++) {
            if (i == 1) {
                continue;
            }
            final String[] cells = lines[i].replaceAll("^\\||\\|$", "").split("\\|");
            html.append("<tr>");
            for (final String cell : cells) {
                html.append(i == 0 ? "<th>" : "<td>").append(escape(cell.trim())).append(i == 0 ? "</th>" : "</td>");
            }
            html.append("</tr>\n");
        }
        return html.append("</table>\n").toString();
    }

    private static String escape(final String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
