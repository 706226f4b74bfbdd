package dev.warden.gateway.internal;

import dev.warden.core.mcp.ParamHeaders;
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

    /** A tool as listed to a client (its exposed name). */
    void note(JsonNode tool) {
        String name = tool.path("name").asString("");
        if (name.isEmpty() || listed.size() >= MAX && !listed.contains(name)) {
            return;
        }
        listed.add(name);
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
