package dev.warden.e2e.attack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * What one principal creates through the gateway is its own (issue 30, finding 1): two API keys,
 * Alice and Bob, share server-everything, whose task store (MCP 2025-11-25 tasks) is one for the
 * whole connection; Bob must see nothing of Alice's tasks.
 */
final class Ownership {

    static final Duration GUARD = Duration.ofSeconds(30);
    /** server-everything's task-based tool: four stages of a second, then a report naming its topic. */
    static final String RESEARCH = "simulate-research-query";
    static final String SECRET_TOPIC = "alice-private-merger-plans";

    private Ownership() {
    }

    static List<Attack> all() {
        return List.of(othersTasks());
    }

    private record Keys(String alice, String bob, String yaml) {
    }

    /**
     * Alice starts two research tasks; Bob lists tasks, gets, reads and cancels hers by their ids.
     * Before: the list showed hers, get and result answered with her task and report, cancel
     * cancelled it. Each of Bob's requests must be answered as for a task id that never existed.
     */
    static Attack othersTasks() {
        // The keys are made when the gateway is started (not when the suite is listed).
        java.util.concurrent.atomic.AtomicReference<Keys> made = new java.util.concurrent.atomic.AtomicReference<>();
        return new Attack("others' tasks", "Bob's tasks/list, get, result, cancel on Alice's tasks (two API keys, one upstream)",
                scale -> {
                    made.set(keys());
                    return Target.gateway(config(made.get()), Map.of());
                }, Optional.empty(), Attack.RSS_BOUND_MIB, false,
                (target, scale, tally) -> {
                    Keys keys = made.get();
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    Map<String, String> alice = Map.of("X-API-Key", keys.alice());
                    Map<String, String> bob = Map.of("X-API-Key", keys.bob());
                    Optional<String> as = Optional.of(initialize(http, alice));
                    Optional<String> bs = Optional.of(initialize(http, bob));
                    String done = startTask(http, as, alice, 1, tally);
                    String other = startTask(http, as, alice, 2, tally);
                    if (done.isEmpty() || other.isEmpty()) {
                        tally.problem("Alice's tools/call did not create a task");
                        return;
                    }
                    String unknown = failureOf(post(http, bs, bob, 10, "tasks/get", "{\"taskId\":\"no-such-task\"}",
                            tally));
                    JsonNode list = post(http, bs, bob, 11, "tasks/list", "{}", tally);
                    if (list.toString().contains(done) || list.toString().contains(other)) {
                        tally.problem("Bob's tasks/list showed Alice's tasks");
                    }
                    long id = 12;
                    for (String method : List.of("tasks/get", "tasks/cancel", "tasks/result")) {
                        String task = "tasks/cancel".equals(method) ? other : done;
                        JsonNode answer = post(http, bs, bob, id++, method, "{\"taskId\":\"" + task + "\"}", tally);
                        if (answer.has("result")) {
                            tally.problem("Bob's " + method + " on Alice's task was answered: "
                                    + abbreviated(answer.get("result").toString()));
                        } else if (!failureOf(answer).equals(unknown)) {
                            tally.problem("Bob's " + method + " on Alice's task was not answered as for an unknown "
                                    + "task: " + failureOf(answer) + " vs " + unknown);
                        }
                    }
                    JsonNode hers = post(http, as, alice, id++, "tasks/get", "{\"taskId\":\"" + other + "\"}", tally);
                    String status = hers.path("result").path("status").asString("");
                    if ("cancelled".equals(status)) {
                        tally.problem("Bob cancelled Alice's task");
                    }
                    JsonNode report = post(http, as, alice, id, "tasks/result", "{\"taskId\":\"" + done + "\"}", tally);
                    if (!report.toString().contains(SECRET_TOPIC)) {
                        tally.problem("Alice could not read her own task's result: " + abbreviated(report.toString()));
                    }
                    tally.note("Alice's second task was " + status + " after Bob's cancel");
                });
    }

    private static String config(Keys keys) {
        return """
                http: { port: 0 }
                auth:
                  apiKeys: { file: %s }
                upstreams:
                  everything:
                    command: [%s, %s, stdio]
                """.formatted(keys.yaml(), Target.NODE, Target.EVERYTHING);
    }

    /** Two fresh keys and the keys file that names them (digests only), as {@code warden keys new} makes them. */
    private static Keys keys() {
        try {
            String alice = key();
            String bob = key();
            Path file = Files.createTempDirectory("warden-attack-keys").resolve("api-keys.yaml");
            Files.writeString(file, "keys:\n  - { name: alice, sha256: %s, scopes: [mcp:tools] }\n"
                    .formatted(sha256(alice)) + "  - { name: bob, sha256: %s, scopes: [mcp:tools] }\n"
                    .formatted(sha256(bob)));
            return new Keys(alice, bob, file.toString());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String key() {
        byte[] raw = new byte[32];
        new SecureRandom().nextBytes(raw);
        return "wdn_" + Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    }

    private static String sha256(String key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    private static String initialize(McpHttp http, Map<String, String> key) throws Exception {
        McpHttp.Reply reply = http.post(Optional.empty(), McpHttp.initializeRequest(0, "{}")
                .getBytes(StandardCharsets.UTF_8), key, GUARD);
        String session = reply.session().orElseThrow(() -> new IllegalStateException("initialize gave no session: "
                + reply));
        http.post(Optional.of(session), "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"
                .getBytes(StandardCharsets.UTF_8), key, GUARD);
        return session;
    }

    private static String startTask(McpHttp http, Optional<String> session, Map<String, String> key, long id,
            Tally tally) throws Exception {
        JsonNode answer = post(http, session, key, id, "tools/call", "{\"name\":\"" + RESEARCH + "\",\"arguments\":"
                + "{\"topic\":\"" + SECRET_TOPIC + "\"},\"task\":{\"ttl\":60000}}", tally);
        return answer.path("result").path("task").path("taskId").asString("");
    }

    /** One request, its one answer (counted), or an empty object. */
    private static JsonNode post(McpHttp http, Optional<String> session, Map<String, String> key, long id,
            String method, String params, Tally tally) throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"%s\",\"params\":%s}".formatted(id, method, params);
        McpHttp.Reply reply = http.post(session, body.getBytes(StandardCharsets.UTF_8), key, GUARD);
        tally.answeredOnce(reply, id);
        return reply.answer(id).orElseGet(() -> McpHttp.JSON.createObjectNode());
    }

    /** An error answer as a client tells it: its code and message. */
    private static String failureOf(JsonNode answer) {
        JsonNode error = answer.path("error");
        return error.path("code").asInt(0) + " " + error.path("message").asString("");
    }

    private static String abbreviated(String text) {
        return text.length() > 160 ? text.substring(0, 160) + "…" : text;
    }
}
