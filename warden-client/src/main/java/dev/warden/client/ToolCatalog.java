package dev.warden.client;

import dev.warden.core.error.IncompatiblePeerException;
import dev.warden.core.error.Violation;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Content;
import dev.warden.core.headers.ParamHeaders;
import dev.warden.core.mcp.Tools;
import dev.warden.core.transport.RequestMetadata;
import dev.warden.core.transport.Transport;
import dev.warden.schema.JsonSchemaValidator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the client knows of the server's tools from the last listing: their output schemas (each
 * structured result is checked against its tool's), the tools left out for breaking the
 * {@code x-mcp-header} rules, and the valid annotations, which go to a transport that mirrors
 * arguments into headers. Forgotten when a new connection is up.
 */
final class ToolCatalog {

    private static final System.Logger LOG = System.getLogger(ToolCatalog.class.getName());

    private final Map<String, Optional<JsonSchemaValidator>> outputSchemas = new ConcurrentHashMap<>();
    private final Set<String> rejectedTools = ConcurrentHashMap.newKeySet();

    void clear() {
        outputSchemas.clear();
    }

    /** Whether the tool was listed since the connection is up (its output schema is known). */
    boolean knows(String tool) {
        return outputSchemas.containsKey(tool);
    }

    void requireCallable(String tool) {
        if (rejectedTools.contains(tool)) {
            throw new IncompatiblePeerException(
                    "The server's definition of this tool breaks the x-mcp-header rules; it is not called");
        }
    }

    /** Records a complete listing; returns the tools that may be called. */
    List<Tools.Tool> listed(List<Tools.Tool> tools, Transport transport) {
        Optional<RequestMetadata> metadata = transport.requestMetadata();
        List<Tools.Tool> kept = metadata.isPresent() ? withValidHeaders(tools, metadata.get()) : tools;
        for (Tools.Tool tool : kept) {
            outputSchemas.put(tool.name(), tool.outputSchema().map(JsonSchemaValidator::compile));
        }
        return kept;
    }

    /**
     * Where arguments become headers, a tool whose {@code x-mcp-header} annotations break the spec's
     * rules is left out (and calling it refused), so one bad definition does not block the others;
     * the valid ones' annotations go to the transport.
     */
    private List<Tools.Tool> withValidHeaders(List<Tools.Tool> tools, RequestMetadata metadata) {
        List<Tools.Tool> kept = new ArrayList<>();
        Map<String, ParamHeaders> annotated = new HashMap<>();
        for (Tools.Tool tool : tools) {
            try {
                ParamHeaders headers = ParamHeaders.of(tool.inputSchema());
                if (!headers.isEmpty()) {
                    annotated.put(tool.name(), headers);
                }
                rejectedTools.remove(tool.name());
                kept.add(tool);
            } catch (ParamHeaders.InvalidException e) {
                rejectedTools.add(tool.name());
                LOG.log(System.Logger.Level.WARNING, "left out tool {0}: {1}", printable(tool.name()), e.getMessage());
            }
        }
        metadata.paramHeaders(annotated);
        return kept;
    }

    /**
     * A page a proxy lists for its own clients: the annotations still have to reach the transport,
     * or its calls would lack the {@code Mcp-Param-*} headers the server checks.
     */
    static void pageListed(JsonNode page, RequestMetadata metadata) {
        Map<String, ParamHeaders> found = new HashMap<>();
        for (JsonNode tool : page.path("tools")) {
            try {
                ParamHeaders headers = ParamHeaders.of(tool.path("inputSchema"));
                if (!headers.isEmpty() && tool.path("name").isString()) {
                    found.put(tool.get("name").stringValue(), headers);
                }
            } catch (ParamHeaders.InvalidException e) {
                LOG.log(System.Logger.Level.DEBUG, "a listed tool breaks the x-mcp-header rules");
            }
        }
        metadata.addParamHeaders(found);
    }

    /** A server-chosen name as a log may show it: printable ASCII, at most 80 characters. */
    private static String printable(String name) {
        StringBuilder b = new StringBuilder();
        name.codePoints().limit(80).forEach(c -> b.append(c >= 0x20 && c < 0x7F ? (char) c : '?'));
        return b.toString();
    }

    /** A tools/call result, its structured content checked against the tool's output schema. */
    ToolCallResult result(String tool, JsonNode value) {
        if (!(value instanceof ObjectNode raw)) {
            throw new IncompatiblePeerException("The tools/call result is not an object");
        }
        boolean isError = raw.path("isError").asBoolean(false);
        List<Content> content = new ArrayList<>();
        JsonNode items = raw.get("content");
        if (items != null && items.isArray()) {
            for (JsonNode item : items) {
                try {
                    content.add(Json.read(item, Content.class));
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.DEBUG, "skipped a content block of an unknown shape");
                }
            }
        }
        Optional<JsonNode> structured = Optional.ofNullable(raw.get("structuredContent"));
        if (!isError) {
            // Not for isError results: a failure need not have the success shape.
            Optional<JsonSchemaValidator> schema = outputSchemas.getOrDefault(tool, Optional.empty());
            if (schema.isPresent()) {
                if (structured.isEmpty()) {
                    throw new IncompatiblePeerException("The tool declares an output schema but returned no "
                            + "structured content");
                }
                List<Violation> violations = schema.get().validate(structured.get());
                if (!violations.isEmpty()) {
                    throw new IncompatiblePeerException("The tool's structured content breaks its output schema: "
                            + violations.stream().map(Violation::line).collect(Collectors.joining("; ")));
                }
            }
        }
        return new ToolCallResult(content, structured, isError, raw);
    }
}
