package dev.warden.e2e;

import dev.warden.core.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * One run of {@code oauth-client.mjs}: the TypeScript SDK's client authorizing itself against an
 * MCP server (discovery, registration, PKCE, tokens, step-up) and what it reported, one JSON object
 * per step ({@code {"step":"challenge"|"resourceMetadata"|"authorizationServerMetadata"|"registered"|
 * "authorize"|"tokens"|"connected"|"tools"|"call"|"done"|"error", ...}}).
 */
record OAuthClientRun(int exitCode, List<JsonNode> steps, String stderr) {

    OAuthClientRun {
        steps = List.copyOf(steps);
    }

    /** {@code basic}: list tools, call {@code tool} with {@code argsJson}. */
    static OAuthClientRun basic(String url, String tool, String argsJson) throws Exception {
        return run(Map.of(), url, "basic", tool, argsJson);
    }

    /** {@code step-up}: {@link #basic}, then {@code stepUpTool}, which needs a scope the first token lacks. */
    static OAuthClientRun stepUp(String url, String tool, String argsJson, String stepUpTool, String stepUpArgsJson)
            throws Exception {
        return run(Map.of(), url, "step-up", tool, argsJson, stepUpTool, stepUpArgsJson);
    }

    /** The client as {@code environment} has it ({@code LOGIN_HINT: bob}, say) with {@code args} after the script. */
    static OAuthClientRun run(Map<String, String> environment, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(AuthorizationServer.NODE,
                Processes.NODE_DIR.resolve("oauth-client.mjs").toString()));
        command.addAll(List.of(args));
        Processes.Result result = Processes.run(command, environment);
        List<JsonNode> steps = new ArrayList<>();
        for (String line : result.stdout().lines().filter(l -> !l.isBlank()).toList()) {
            steps.add(Json.mapper().readTree(line));
        }
        return new OAuthClientRun(result.exitCode(), steps, result.stderr());
    }

    /** Every step named {@code name}, in order. */
    List<JsonNode> all(String name) {
        return steps.stream().filter(s -> s.path("step").asString().equals(name)).toList();
    }

    /** The first step named {@code name}; an assertion error naming every step when there is none. */
    JsonNode first(String name) {
        return all(name).stream().findFirst().orElseThrow(() -> new AssertionError("no " + name + " step in " + this));
    }

    boolean completed() {
        return exitCode == 0 && !all("done").isEmpty();
    }
}
