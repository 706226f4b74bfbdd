package dev.warden.core.incident;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import dev.warden.core.json.Json;
import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Finding;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON shapes of an incident: {@link #toJson} the readable one (a log, {@code warden incidents
 * show --json}), {@link #stored} the same members written compactly for the store (findings as
 * arrays), {@link #summary} what a log carries when the store keeps the rest. {@link #fromJson}
 * reads both forms of findings.
 */
public final class IncidentJson {

    private IncidentJson() {
    }

    public static ObjectNode toJson(Incident incident) {
        ObjectNode node = detailed(incident);
        if (!incident.findings().isEmpty()) {
            node.set("findings", findingsJson(incident.findings()));
        }
        return withChain(node, incident);
    }

    /**
     * The record the store writes: {@link #toJson}'s members, but each finding as an array
     * {@code [category, kind, start, end]} ({@code kind} left out when it is the category's own
     * name): a failure's findings were most of its record, each naming all four members.
     */
    public static ObjectNode stored(Incident incident) {
        ObjectNode node = detailed(incident);
        if (!incident.findings().isEmpty()) {
            ArrayNode compact = node.putArray("findings");
            for (Finding f : incident.findings()) {
                ArrayNode entry = compact.addArray().add(f.category().label());
                if (!f.kind().equals(f.category().label())) {
                    entry.add(f.kind());
                }
                entry.add(f.start()).add(f.end());
            }
        }
        return withChain(node, incident);
    }

    /**
     * The record as every store keeps it: {@link #stored}'s form with credentials replaced by
     * markers naming their kind ({@code AtRest}), for a store outside this package (PostgreSQL).
     */
    public static ObjectNode atRest(Incident incident) {
        return stored(AtRest.redacted(incident));
    }

    /**
     * What a log keeps of an incident whose detail is in the store: the ref to look it up by and
     * what Warden itself said (code, method, tool, upstream, reason). Nothing an upstream or a
     * caller wrote: no original, no arguments, no exception messages (the authenticated subject and
     * client id are the server's own finding, not the caller's words).
     */
    public static ObjectNode summary(Incident incident) {
        ObjectNode node = Json.object();
        node.put("type", "incident");
        node.put("ref", incident.ref().value());
        node.put("time", incident.time().toString());
        node.put("code", incident.code().name());
        node.put("method", incident.method());
        incident.tool().ifPresent(t -> node.put("tool", t));
        incident.upstream().ifPresent(u -> node.put("upstream", u));
        incident.reason().ifPresent(r -> node.put("reason", r));
        incident.subject().ifPresent(c -> node.put("subject", c));
        incident.clientId().ifPresent(c -> node.put("clientId", c));
        incident.issuer().ifPresent(c -> node.put("issuer", c));
        incident.kind().ifPresent(c -> node.put("kind", c));
        return node;
    }

    /** The summary, then what the caller and the upstream wrote (arguments, original): findings and the chain follow. */
    private static ObjectNode detailed(Incident incident) {
        ObjectNode node = summary(incident);
        incident.arguments().ifPresent(a -> node.put("arguments", a));
        incident.original().ifPresent(o -> node.put("original", o));
        return node;
    }

    private static ObjectNode withChain(ObjectNode node, Incident incident) {
        if (!incident.chain().isEmpty()) {
            ArrayNode chain = node.putArray("exception");
            for (Incident.ThrowableRecord record : incident.chain()) {
                ObjectNode entry = chain.addObject();
                entry.put("type", record.type());
                record.message().ifPresent(m -> entry.put("message", m));
                ArrayNode stack = entry.putArray("stack");
                record.stack().forEach(stack::add);
            }
        }
        return node;
    }

    /** Findings as JSON ({@code category}, {@code kind}, {@code start}, {@code end}): the readable shape, for logs and the CLI. */
    public static ArrayNode findingsJson(List<Finding> findings) {
        ArrayNode array = Json.mapper().getNodeFactory().arrayNode();
        for (Finding f : findings) {
            array.addObject().put("category", f.category().label()).put("kind", f.kind())
                    .put("start", f.start()).put("end", f.end());
        }
        return array;
    }

    /**
     * Reads a record; fields added later ({@code arguments}, {@code reason}, {@code subject}, {@code
     * clientId}, {@code issuer}, {@code kind}) are optional, so records
     * written before them still read.
     *
     * @throws IllegalArgumentException if the node is not an incident
     */
    public static Incident fromJson(JsonNode node) {
        try {
            List<Finding> findings = new ArrayList<>();
            JsonNode fs = node.get("findings");
            if (fs != null) {
                for (JsonNode f : fs) {
                    if (f.isArray()) { // the stored form: [category, kind?, start, end]
                        Category category = category(f.get(0).stringValue());
                        boolean kind = f.size() == 4;
                        findings.add(new Finding(category, kind ? f.get(1).stringValue() : category.label(),
                                f.get(kind ? 2 : 1).intValue(), f.get(kind ? 3 : 2).intValue()));
                    } else {
                        findings.add(new Finding(category(f.get("category").stringValue()), f.get("kind").stringValue(),
                                f.get("start").intValue(), f.get("end").intValue()));
                    }
                }
            }
            List<Incident.ThrowableRecord> chain = new ArrayList<>();
            JsonNode ex = node.get("exception");
            if (ex != null) {
                for (JsonNode e : ex) {
                    List<String> stack = new ArrayList<>();
                    e.path("stack").forEach(frame -> stack.add(frame.stringValue()));
                    chain.add(new Incident.ThrowableRecord(e.get("type").stringValue(),
                            Optional.ofNullable(e.get("message")).map(JsonNode::stringValue), stack));
                }
            }
            return new Incident(new Ref(node.get("ref").stringValue()), Instant.parse(node.get("time").stringValue()),
                    ErrorCode.valueOf(node.get("code").stringValue()), node.get("method").stringValue(),
                    text(node, "tool"), text(node, "upstream"), text(node, "original"), findings, chain,
                    text(node, "arguments"), text(node, "reason"), text(node, "subject"), text(node, "clientId"),
                    text(node, "issuer"), text(node, "kind"));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not an incident record", e);
        }
    }

    private static Optional<String> text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? Optional.empty() : Optional.of(value.stringValue());
    }

    private static Category category(String label) {
        for (Category c : Category.values()) {
            if (c.label().equals(label)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown category");
    }
}
