package dev.warden.gateway.internal.catalog;

import dev.warden.core.headers.ParamHeaders;
import dev.warden.core.mcp.Tools;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;

/**
 * What the gateway learnt of the tools it listed, by the name clients call them: shared by all
 * client connections, since a stateless client lists on one connection and calls on the next.
 */
public final class ToolCatalog {

    /** Names listed at most: the catalog only grows with tools upstreams really listed, but stays bounded. */
    static final int MAX = 100_000;

    private final Set<String> listed = ConcurrentHashMap.newKeySet();
    private final Set<String> withOutputSchema = ConcurrentHashMap.newKeySet();
    private final Map<String, ParamHeaders> headers = new ConcurrentHashMap<>();
    private final Map<String, java.util.List<String>> published = new ConcurrentHashMap<>();
    /** Each listed tool's upstream and its own name there: guidance may name a tool either way. */
    private final Map<String, Naming.Target> upstreamOf = new ConcurrentHashMap<>();
    /** The same tools by their own names upstream: what the gateway's spans to an upstream are named by. */
    private final Set<String> upstreamNames = ConcurrentHashMap.newKeySet();

    /** Words of one tool's definition kept at most (its name, property names, enum values). */
    static final int MAX_PUBLISHED = 256;

    /** A tool as listed to a client (its exposed name). */
    public void note(JsonNode tool) {
        note(tool, Optional.empty());
    }

    /** A tool as listed to a client (its exposed name), from {@code target}: its upstream and its own name there. */
    public void note(JsonNode tool, Optional<Naming.Target> target) {
        String name = tool.path("name").asString("");
        if (name.isEmpty() || listed.size() >= MAX && !listed.contains(name)) {
            return;
        }
        listed.add(name);
        target.ifPresent(t -> {
            upstreamOf.put(name, t);
            upstreamNames.add(t.name());
        });
        published.put(name, publishedWords(name, tool));
        if (tool.path("outputSchema").isObject()) {
            withOutputSchema.add(name);
        } else {
            withOutputSchema.remove(name);
        }
        try {
            ParamHeaders annotated = ParamHeaders.of(tool.path("inputSchema"));
            if (annotated.isEmpty()) {
                headers.remove(name);
            } else {
                headers.put(name, annotated);
            }
        } catch (ParamHeaders.InvalidException e) {
            headers.remove(name); // the client cannot mirror what breaks the rules; nothing to check
        }
    }

    /**
     * What the tool told every client about itself: its name, title and description, the names of
     * its input's properties (nested ones too), their descriptions, patterns, formats, examples,
     * constants and enum values. A failure that names one of them ("missing
     * address_line2", "must match ^ord_[0-9]+$") tells the caller nothing only the server knows.
     */
    public java.util.List<String> published(String name) {
        return published.getOrDefault(name, java.util.List.of());
    }

    /**
     * The tools listed from the same upstream as {@code exposed}: exposed name to the tool's own
     * name there (at most {@value #MAX_PUBLISHED}), the tools guidance from that upstream may point at.
     */
    public Map<String, String> siblings(String exposed) {
        Naming.Target of = upstreamOf.get(exposed);
        if (of == null) {
            return Map.of();
        }
        Map<String, String> out = new java.util.HashMap<>();
        for (Map.Entry<String, Naming.Target> e : upstreamOf.entrySet()) {
            if (e.getValue().link().name().equals(of.link().name()) && out.size() < MAX_PUBLISHED) {
                out.put(e.getKey(), e.getValue().name());
            }
        }
        return out;
    }

    /**
     * Strings of a schema that are text the server wrote for its callers (not structure). Not
     * {@code default}: a server may fill it with one caller's own values (the replay server of the
     * harvested corpus does, and the auditor counts them back as leaks), so a default stays what the
     * caller sent when it sent it, and is not published to every caller.
     */
    private static final String[] TEXT_MEMBERS = {"description", "title", "pattern", "format", "const", "examples",
            "example"};

    private static java.util.List<String> publishedWords(String name, JsonNode tool) {
        java.util.List<String> words = new java.util.ArrayList<>();
        words.add(name);
        for (String member : new String[] {"title", "description"}) {
            if (tool.path(member).isString()) {
                words.add(tool.path(member).stringValue());
            }
        }
        JsonNode schema = tool.path("inputSchema");
        java.util.ArrayDeque<JsonNode> todo = new java.util.ArrayDeque<>();
        todo.push(schema);
        int visited = 0;
        while (!todo.isEmpty() && words.size() < MAX_PUBLISHED && visited++ < 4 * MAX_PUBLISHED) {
            JsonNode node = todo.pop();
            if (!node.isObject()) {
                continue;
            }
            node.path("properties").propertyNames().forEach(p -> {
                if (words.size() < MAX_PUBLISHED) {
                    words.add(p);
                }
            });
            node.path("properties").forEach(todo::push);
            node.path("enum").forEach(v -> {
                if (v.isString() && words.size() < MAX_PUBLISHED) {
                    words.add(v.stringValue());
                }
            });
            for (String member : TEXT_MEMBERS) {
                JsonNode v = node.path(member);
                for (JsonNode item : v.isArray() ? v : java.util.List.of(v)) {
                    if (item.isString() && !item.stringValue().isBlank() && words.size() < MAX_PUBLISHED) {
                        words.add(item.stringValue());
                    }
                }
            }
            for (String nested : new String[] {"items", "additionalProperties"}) {
                todo.push(node.path(nested));
            }
            for (String list : new String[] {"anyOf", "oneOf", "allOf", "prefixItems"}) {
                node.path(list).forEach(todo::push);
            }
            node.path("$defs").forEach(todo::push);
        }
        return java.util.List.copyOf(words);
    }

    /** Whether an upstream listed this name: only such names become audit records' tools and metric labels. */
    public boolean listed(String name) {
        return listed.contains(name);
    }

    /**
     * Whether {@code name} may name a span of {@code method} (the telemetry's {@code KnownTargets}):
     * a tool an upstream listed, by the name clients call it or its own upstream. Nothing else, so a
     * name a caller makes up (up to 256 characters) makes no span name or metric series; prompts,
     * which the gateway keeps no list of, never do.
     */
    public boolean names(String method, String name) {
        return Tools.CALL.equals(method) && (listed.contains(name) || upstreamNames.contains(name));
    }

    public boolean hasOutputSchema(String name) {
        return withOutputSchema.contains(name);
    }

    /** The tool's {@code x-mcp-header} arguments, whose {@code Mcp-Param-*} headers must agree with the call. */
    public Optional<ParamHeaders> paramHeaders(String name) {
        return Optional.ofNullable(headers.get(name));
    }
}
