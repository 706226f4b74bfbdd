package dev.warden.console.page;

import dev.warden.console.feed.MinuteStats;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The per-tool charts, drawn here as inline SVG (no script, no library, nothing fetched): calls per
 * minute stacked by outcome, each Warden code in its own colour, and latency p50/p95 per minute.
 * Colours come from the stylesheet by class (the policy allows no inline style); each bar's
 * {@code <title>} is its tooltip.
 */
final class Charts {

    static final int WIDTH = 560;
    static final int HEIGHT = 110;
    private static final int LEFT = 36;
    private static final int TOP = 8;
    private static final int BOTTOM = 16;
    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private Charts() {
    }

    /** Colours for a tool's error outcomes, in the order its legend lists them; beyond them, one more. */
    static final int PALETTE = 9;

    /**
     * The class each outcome of one tool is coloured by: OK and cancelled their own, each error
     * outcome the next colour of the palette in its order (a tool's chart and legend agree; no
     * code is looked up by its name).
     */
    static Map<String, String> classes(Iterable<String> outcomes) {
        Map<String, String> classes = new java.util.HashMap<>();
        int next = 0;
        for (String outcome : outcomes) {
            classes.put(outcome, switch (outcome) {
                case "OK" -> "ok";
                case "CANCELLED" -> "cancelled";
                default -> next < PALETTE ? "code-" + next++ : "err";
            });
        }
        return classes;
    }

    /** @param classes each outcome's colour ({@link #classes}) */
    static Markup calls(List<MinuteStats> minutes, Map<String, String> classes) {
        long max = 1;
        for (MinuteStats m : minutes) {
            max = Math.max(max, m.calls());
        }
        int plotHeight = HEIGHT - TOP - BOTTOM;
        double slot = (double) (WIDTH - LEFT) / minutes.size();
        Markup svg = open("calls", "Calls per minute by outcome, last hour");
        axes(svg, minutes, max + "/min");
        for (int i = 0; i < minutes.size(); i++) {
            MinuteStats m = minutes.get(i);
            if (m.calls() == 0) {
                continue;
            }
            double x = LEFT + i * slot + 1;
            double base = HEIGHT - BOTTOM;
            svg.tag("<g class=\"bar\"><title>").text(MINUTE.format(m.start()) + " UTC: " + m.calls() + " calls, "
                    + m.byOutcome()).tag("</title>");
            for (Map.Entry<String, Long> e : m.byOutcome().entrySet()) {
                double h = (double) e.getValue() * plotHeight / max;
                base -= h;
                svg.tag("<rect class=\"").tag(classes.getOrDefault(e.getKey(), "err")).tag("\" x=\"").tag(num(x)).tag("\" y=\"")
                        .tag(num(base)).tag("\" width=\"").tag(num(Math.max(1, slot - 2))).tag("\" height=\"")
                        .tag(num(h)).tag("\"/>");
            }
            svg.tag("</g>");
        }
        return svg.tag("</svg>");
    }

    static Markup latency(List<MinuteStats> minutes) {
        long max = 1;
        for (MinuteStats m : minutes) {
            max = Math.max(max, m.p95().map(Duration::toMillis).orElse(0L));
        }
        Markup svg = open("latency", "Latency per minute, p50 and p95, last hour");
        axes(svg, minutes, max + " ms");
        line(svg, minutes, MinuteStats::p50, max, "p50");
        line(svg, minutes, MinuteStats::p95, max, "p95");
        return svg.tag("</svg>");
    }

    private static void line(Markup svg, List<MinuteStats> minutes,
                             java.util.function.Function<MinuteStats, Optional<Duration>> quantile, long max,
                             String cls) {
        int plotHeight = HEIGHT - TOP - BOTTOM;
        double slot = (double) (WIDTH - LEFT) / minutes.size();
        StringBuilder points = new StringBuilder();
        Markup dots = new Markup();
        for (int i = 0; i < minutes.size(); i++) {
            Optional<Duration> q = quantile.apply(minutes.get(i));
            if (q.isPresent()) {
                String x = num(LEFT + (i + 0.5) * slot);
                String y = num(HEIGHT - BOTTOM - (double) q.get().toMillis() * plotHeight / max);
                points.append(x).append(',').append(y).append(' ');
                // a dot per minute: a minute alone still shows, where a line of one point draws nothing
                dots.tag("<circle class=\"dot ").tag(cls).tag("\" cx=\"").tag(x).tag("\" cy=\"").tag(y)
                        .tag("\" r=\"2.5\"><title>").tag(cls).tag(" ").tag(MINUTE.format(minutes.get(i).start()))
                        .tag(" UTC: ≤ ").number(q.get().toMillis()).tag(" ms</title></circle>");
            }
        }
        if (!points.isEmpty()) {
            svg.tag("<polyline class=\"").tag(cls).tag("\" points=\"").tag(points.toString().strip())
                    .tag("\"></polyline>").append(dots);
        }
    }

    private static Markup open(String name, String label) {
        return new Markup().tag("<svg class=\"chart ").tag(name).tag("\" xmlns=\"http://www.w3.org/2000/svg\" width=\"")
                .number(WIDTH).tag("\" height=\"").number(HEIGHT).tag("\" viewBox=\"0 0 ").number(WIDTH).tag(" ")
                .number(HEIGHT).tag("\" role=\"img\" aria-label=\"").tag(label).tag("\">");
    }

    private static void axes(Markup svg, List<MinuteStats> minutes, String top) {
        int base = HEIGHT - BOTTOM;
        svg.tag("<line class=\"axis\" x1=\"").number(LEFT).tag("\" y1=\"").number(base).tag("\" x2=\"").number(WIDTH)
                .tag("\" y2=\"").number(base).tag("\"/>")
                .tag("<line class=\"axis\" x1=\"").number(LEFT).tag("\" y1=\"").number(TOP).tag("\" x2=\"").number(LEFT)
                .tag("\" y2=\"").number(base).tag("\"/>")
                .tag("<text x=\"2\" y=\"").number(TOP + 8).tag("\">").text(top).tag("</text>")
                .tag("<text x=\"2\" y=\"").number(base).tag("\">0</text>");
        if (!minutes.isEmpty()) {
            svg.tag("<text x=\"").number(LEFT).tag("\" y=\"").number(HEIGHT - 3).tag("\">")
                    .text(MINUTE.format(minutes.get(0).start())).tag("</text>")
                    .tag("<text x=\"").number(WIDTH - 60).tag("\" y=\"").number(HEIGHT - 3).tag("\">")
                    .text(MINUTE.format(minutes.get(minutes.size() - 1).start()) + " UTC").tag("</text>");
        }
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
