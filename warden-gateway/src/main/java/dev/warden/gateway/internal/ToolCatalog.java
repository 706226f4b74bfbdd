package dev.warden.gateway.internal;

import dev.warden.core.headers.ParamHeaders;
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

    /** Words of one tool's definition kept at most (its name, property names, enum values). */
    static final int MAX_PUBLISHED = 256;

    /** A tool as listed to a client (its exposed name). */
    void note(JsonNode tool) {
        String name = tool.path("name").asString("");
        if (name.isEmpty() || listed.size() >= MAX && !listed.contains(name)) {
            return;
        }
        listed.add(name);
        published.put(name, publishedWords(name, tool.path("inputSchema")));
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
     * What the tool told every client about itself: its name, the names of its input's properties
     * (nested ones too) and their enum values. A failure that names one of them ("missing
     * address_line2") tells the caller nothing only the server knows.
     */
    java.util.List<String> published(String name) {
        return published.getOrDefault(name, java.util.List.of());
    }

    private static java.util.List<String> publishedWords(String name, JsonNode schema) {
        java.util.List<String> words = new java.util.ArrayList<>();
        words.add(name);
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
    boolean listed(String name) {
        return listed.contains(name);
    }

    boolean hasOutputSchema(String name) {
        return withOutputSchema.contains(name);
    }

    /** The tool's {@code x-mcp-header} arguments, whose {@code Mcp-Param-*} headers must agree with the call. */
    Optional<ParamHeaders> paramHeaders(String name) {
        return Optional.ofNullable(headers.get(name));
    }
}
