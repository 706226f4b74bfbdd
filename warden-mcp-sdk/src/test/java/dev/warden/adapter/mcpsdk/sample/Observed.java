package dev.warden.adapter.mcpsdk.sample;

import dev.warden.core.json.Json;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Optional;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;

/**
 * What a client received for one failing request, as the text it can show a model: an
 * {@code isError} result's text, a JSON-RPC error's code, message and data, or an HTTP error body.
 */
public record Observed(String kind, String text) {

    public static Observed of(Supplier<Object> call) {
        try {
            Object answer = call.get();
            if (answer instanceof McpSchema.CallToolResult result) {
                StringBuilder text = new StringBuilder();
                result.content().forEach(c -> text.append(c instanceof McpSchema.TextContent t ? t.text() : c));
                return new Observed(Boolean.TRUE.equals(result.isError()) ? "isError" : "result", text.toString());
            }
            return new Observed("result", String.valueOf(answer));
        } catch (RuntimeException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof McpError error && error.getJsonRpcError() != null) {
                    var rpc = error.getJsonRpcError();
                    return new Observed("error " + rpc.code(), rpc.message()
                            + (rpc.data() == null ? "" : " data=" + Json.write(rpc.data())));
                }
            }
            return new Observed("exception", e.toString());
        }
    }

    /** Warden's {@code code} and {@code ref}, wherever this answer carries them. */
    public Optional<JsonNode> warden() {
        int brace = text.indexOf('{');
        if (brace < 0) {
            return Optional.empty();
        }
        JsonNode node;
        try {
            node = Json.mapper().readTree(text.substring(brace));
        } catch (RuntimeException notJson) {
            return Optional.empty();
        }
        JsonNode error = node.has("error") ? node.get("error") : node;
        for (JsonNode candidate : new JsonNode[] {error, error.path("data")}) {
            if (candidate.path("code").isString() && candidate.hasNonNull("ref")) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** One line for the guide's table: the kind and at most {@code max} characters of the text. */
    public String cell(int max) {
        String flat = text.replace("\r", "").replace("\n", "⏎").replace("\t", " ").replace("|", "\\|");
        return "`" + kind + "` " + (flat.length() > max ? flat.substring(0, max) + "…" : flat);
    }
}
