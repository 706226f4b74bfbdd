package dev.warden.console.page;

import dev.warden.core.incident.Incident;
import dev.warden.core.sanitize.detection.Finding;
import java.time.Instant;
import java.util.Optional;

/**
 * One incident as the operator reads it (what {@code warden incidents show} prints): who, what,
 * Warden's reason, the arguments, the original the client never saw, what the sanitizer found in
 * it, and the exception chain. All of it is escaped: an original is the least trusted text there is.
 */
public final class IncidentView {

    private IncidentView() {
    }

    public static String render(Incident i, Instant now) {
        Markup m = new Markup().tag("<h1>Incident <span class=\"mono\" id=\"incident-ref\">").text(i.ref().value())
                .tag("</span></h1><dl class=\"fields\">");
        field(m, "time", Optional.of(i.time().toString()));
        field(m, "code", Optional.of(i.code().name()));
        field(m, "method", Optional.of(i.method()));
        field(m, "tool", i.tool());
        field(m, "upstream", i.upstream());
        field(m, "reason", i.reason());
        field(m, "subject", i.subject());
        field(m, "client id", i.clientId());
        field(m, "issuer", i.issuer());
        field(m, "kind", i.kind());
        m.tag("</dl>");
        i.original().ifPresent(o -> m.tag("<h2>Original</h2><pre id=\"original\">").block(o).tag("</pre>"));
        i.arguments().ifPresent(a -> m.tag("<h2>Arguments</h2><pre id=\"arguments\">").block(a).tag("</pre>"));
        if (!i.findings().isEmpty()) {
            m.tag("<h2>Findings</h2><table><thead><tr><th>Category</th><th>Kind</th><th>Where</th></tr></thead><tbody>");
            for (Finding f : i.findings()) {
                m.tag("<tr><td>").text(f.category().label()).tag("</td><td class=\"mono\">").text(f.kind())
                        .tag("</td><td>[").number(f.start()).tag(", ").number(f.end()).tag(")</td></tr>");
            }
            m.tag("</tbody></table>");
        }
        if (!i.chain().isEmpty()) {
            StringBuilder chain = new StringBuilder();
            String prefix = "";
            for (Incident.ThrowableRecord r : i.chain()) {
                chain.append(prefix).append(r.type()).append(r.message().map(x -> ": " + x).orElse("")).append('\n');
                r.stack().forEach(frame -> chain.append("    at ").append(frame).append('\n'));
                prefix = "Caused by: ";
            }
            m.tag("<h2>Exception</h2><pre id=\"chain\">").block(chain.toString()).tag("</pre>");
        }
        m.tag("<p><a href=\"/incidents\">All incidents</a></p>");
        return Frame.page(Tab.INCIDENTS, "Incident", now, m);
    }

    private static void field(Markup m, String name, Optional<String> value) {
        value.ifPresent(v -> m.tag("<dt>").tag(name).tag("</dt><dd class=\"mono\">").text(v).tag("</dd>"));
    }
}
