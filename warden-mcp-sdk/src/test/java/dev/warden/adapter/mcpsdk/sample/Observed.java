package dev.warden.adapter.mcpsdk.sample;

import dev.warden.core.error.Ref;
import dev.warden.core.incident.Incident;
import dev.warden.core.incident.IncidentStore;
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

    /**
     * The incident behind this answer's ref, which carries the code the answer carries: what every
     * guarded failure must have (one code, one ref, one incident of that code). Fails when any is missing.
     */
    public Incident incidentIn(IncidentStore store) {
        JsonNode warden = warden().orElseThrow(() -> new AssertionError("no code and ref in " + this));
        Incident incident = store.find(new Ref(warden.path("ref").asString()))
                .orElseThrow(() -> new AssertionError("no incident for " + warden + " in " + this));
        if (!incident.code().name().equals(warden.path("code").asString())) {
            throw new AssertionError("the incident's code is " + incident.code() + ", the answer's " + warden);
        }
        return incident;
    }

    /** What the incident behind the ref keeps of the original: its exception chain and its text. */
    public String originalIn(IncidentStore store) {
        Incident incident = incidentIn(store);
        return incident.chain() + " " + incident.original().orElse("");
    }

    /** One line for the guide's table: the kind and at most {@code max} characters of the text. */
    public String cell(int max) {
        String flat = text.replace("\r", "").replace("\n", "⏎").replace("\t", " ").replace("|", "\\|");
        return "`" + kind + "` " + (flat.length() > max ? flat.substring(0, max) + "…" : flat);
    }
}
