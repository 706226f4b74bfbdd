package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code bearer-client.mjs}: the TypeScript SDK client presenting a bearer token on every request
 * and running a list of requests; what it received, one outcome ({@code {"result": ...}} or {@code
 * {"error": {name, code, message, data}}}) per named step.
 */
final class BearerClient {

    private final ArrayNode steps = Json.mapper().createArrayNode();

    BearerClient request(String name, String method, ObjectNode params) {
        steps.addObject().put("name", name).put("method", method).set("params", params);
        return this;
    }

    BearerClient call(String name, String tool, String argumentsJson) {
        ObjectNode params = Json.object().put("name", tool);
        params.set("arguments", Json.mapper().readTree(argumentsJson));
        return request(name, "tools/call", params);
    }

    /** Runs the requests against {@code url}, presenting {@code token} (none: no Authorization header). */
    JsonNode runAgainst(String url, Optional<String> token) throws Exception {
        Processes.Result result = Processes.run(Processes.node("bearer-client.mjs", url, Json.write(steps)),
                token.map(t -> Map.of("BEARER", t)).orElse(Map.of()));
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        return Json.mapper().readTree(result.stdout().strip());
    }
}
