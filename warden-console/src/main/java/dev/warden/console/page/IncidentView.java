package dev.warden.console.page;

import dev.warden.core.error.Ref;
import dev.warden.core.incident.Incident;
import dev.warden.core.sanitize.detection.Finding;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * One incident as the operator reads it (what {@code warden incidents show} prints): who, what,
 * Warden's reason, the arguments, the original the client never saw, what the sanitizer found in
 * it, and the exception chain. All of it is escaped: an original is the least trusted text there is.
 * A ref in the original or the chain that the store also holds (an upstream on Warden's SDK writing
 * to the same data directory gave it) links to that incident.
 */
public final class IncidentView {

    private IncidentView() {
    }

    /** Refs looked up for one page: an upstream's error names one; an original naming thousands costs no more. */
    private static final int MOST_LINKED = 16;

    /**
     * @param linked the refs in the original and the chain to link, those the store holds ({@link
     *     #refsIn} finds the candidates)
     */
    public static String render(Incident i, Set<Ref> linked, Instant now) {
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
        i.original().ifPresent(o -> linkRefs(m.tag("<h2>Original</h2><pre id=\"original\">"), o, linked)
                .tag("</pre>"));
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
            linkRefs(m.tag("<h2>Exception</h2><pre id=\"chain\">"), chain.toString(), linked).tag("</pre>");
        }
        m.tag("<p><a href=\"/incidents\">All incidents</a></p>");
        return Frame.page(Tab.INCIDENTS, "Incident", now, m);
    }

    /** The refs other than the incident's own in its original and its exception messages, in order. */
    public static Set<Ref> refsIn(Incident i) {
        Set<Ref> found = new LinkedHashSet<>();
        i.original().ifPresent(o -> Ref.occurrences(o).forEach(r -> found.add(r.ref())));
        i.chain().forEach(r -> r.message().ifPresent(text -> Ref.occurrences(text).forEach(o -> found.add(o.ref()))));
        found.remove(i.ref());
        return found.stream().limit(MOST_LINKED).collect(java.util.stream.Collectors.toCollection(LinkedHashSet::new));
    }

    /** {@code text} as a block, each ref of {@code linked} in it a link to its incident. */
    private static Markup linkRefs(Markup m, String text, Set<Ref> linked) {
        int done = 0;
        for (Ref.Occurrence o : Ref.occurrences(text)) {
            if (linked.contains(o.ref())) {
                m.block(text.substring(done, o.start())).tag("<a href=\"/incidents/").tag(o.ref().value())
                        .tag("\">").tag(o.ref().value()).tag("</a>");
                done = o.end();
            }
        }
        return m.block(text.substring(done));
    }

    private static void field(Markup m, String name, Optional<String> value) {
        value.ifPresent(v -> m.tag("<dt>").tag(name).tag("</dt><dd class=\"mono\">").text(v).tag("</dd>"));
    }
}
