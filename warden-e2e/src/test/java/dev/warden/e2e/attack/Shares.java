package dev.warden.e2e.attack;

import static dev.warden.e2e.attack.Honest.GUARD;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;

/**
 * One authenticated caller against another's fair share (issue 30): of the upstream's places
 * (finding 7) and of the per-client rate on methods other than {@code tools/call} (finding 11).
 * The gateway has API keys and server-everything alone; the suite's honest client has no key, so
 * the attack's second caller is the honest one here.
 */
final class Shares {

    private Shares() {
    }

    static List<Attack> all() {
        return List.of(statelessFlood(), rateOnReads());
    }

    /** Stateless long calls from one key: the finding's 70, on the default 64 places (8 a client). */
    static final int FLOOD = 70;

    /**
     * How long a flood call may take in all, a hang guard: one sent late waits up to the queue wait
     * (5 s) for a place an admitted call gives back at 8 s, then runs 8 s itself, so 16 s and more
     * from its sending on a loaded machine; the suite's 20 s failed one so in CI.
     */
    static final Duration FLOOD_GUARD = Duration.ofSeconds(60);

    /**
     * One API key floods stateless (2026-07-28) long calls (finding 7: they took 64 of 64 places,
     * and another key's echo waited 5 s and was refused busy); the other key's stateless echo must
     * be served promptly meanwhile.
     */
    static Attack statelessFlood() {
        Key alice = Key.fresh("alice");
        Key bob = Key.fresh("bob");
        return new Attack("one key floods stateless calls",
                FLOOD + " stateless long calls from one API key; another key's stateless echo meanwhile",
                scale -> Target.gateway(config(List.of(alice, bob), ""), Map.of()), Optional.empty(),
                Attack.RSS_BOUND_MIB, false, (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    // A first echo connects the gateway to the upstream for stateless clients (a process
                    // started): what the timed echo measures is the wait for a place, not that start.
                    McpHttp.Reply warm = post(http, bob, stateless(999, "tools/call",
                            "{\"name\":\"echo\",\"arguments\":{\"message\":\"warm\"}"), "tools/call", "echo");
                    tally.answeredOnce(warm, 999);
                    List<CompletableFuture<McpHttp.Reply>> flood = new ArrayList<>();
                    for (int i = 0; i < FLOOD; i++) {
                        String body = stateless(i, "tools/call", "{\"name\":\"trigger-long-running-operation\","
                                + "\"arguments\":{\"duration\":8,\"steps\":1}");
                        flood.add(CompletableFuture.supplyAsync(() -> post(http, alice, body, "tools/call",
                                "trigger-long-running-operation", FLOOD_GUARD), r -> Thread.ofVirtual().start(r)));
                    }
                    // The flood's calls are at the gateway: its 64 places are taken (or not) by now.
                    waitForGateway(flood);
                    long start = System.nanoTime();
                    int id = 1_000;
                    McpHttp.Reply echo = post(http, bob, stateless(id, "tools/call",
                            "{\"name\":\"echo\",\"arguments\":{\"message\":\"bob\"}"), "tools/call", "echo");
                    long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                    tally.answeredOnce(echo, id);
                    Optional<JsonNode> answer = echo.answer(id);
                    boolean served = answer.map(a -> a.has("result") && !a.at("/result/isError").asBoolean(false))
                            .orElse(false);
                    // Served before any of the flood's admitted calls (8 s each upstream) ended: it waited
                    // for no place one of them gave back. The finding's was refused "busy" after the 5 s
                    // queue wait. An order of events, not a time limit, which a slow machine would miss.
                    // Only an admitted call's own result counts: the calls refused past the key's share
                    // come back at the 5 s queue wait, and they gave back no place.
                    int endedBefore = 0;
                    for (int i = 0; i < FLOOD; i++) {
                        CompletableFuture<McpHttp.Reply> call = flood.get(i);
                        int callId = i;
                        if (call.isDone() && call.join().answer(callId).map(a -> a.has("result")
                                && !a.at("/result/isError").asBoolean(false)).orElse(false)) {
                            endedBefore++;
                        }
                    }
                    if (!served || endedBefore > 0) {
                        tally.problem("another key's echo during the flood: " + (served ? "served" : "not served")
                                + " in " + tookMs + " ms" + (served ? ", after " + endedBefore
                                + " of the flood's calls had ended" : ": " + shorten(answer)));
                    } else {
                        tally.note("another key's echo served in " + tookMs + " ms during the flood");
                    }
                    int refused = 0;
                    for (int i = 0; i < FLOOD; i++) {
                        McpHttp.Reply reply = flood.get(i).join();
                        tally.answeredOnce(reply, i);
                        if (reply.answer(i).map(a -> a.toString().contains("maxConcurrentPerClient")).orElse(false)) {
                            refused++;
                        }
                    }
                    tally.note(refused + " of the flood's " + FLOOD + " calls refused past the key's share");
                });
    }

    /** The per-client rate in the rate attack: a read past it must be refused. */
    static final int RATE = 5;

    /**
     * One key reads a resource and gets a prompt, in a session and stateless, more often than its
     * rate (finding 11: only {@code tools/call} spent it, these passed free); another key's read is
     * still served. A refusal is a JSON-RPC error (-32603) with RATE_LIMITED in {@code data}.
     */
    static Attack rateOnReads() {
        Key alice = Key.fresh("alice");
        Key bob = Key.fresh("bob");
        return new Attack("rate limit on reads and prompts",
                "resources/read and prompts/get past one key's rate of " + RATE + "/m, session and stateless",
                scale -> Target.gateway(config(List.of(alice, bob), "rateLimit: { perClient: " + RATE + "/m }\n"),
                        Map.of()), Optional.empty(), Attack.RSS_BOUND_MIB, false, (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    String session = initialize(http, alice);
                    int served = 0;
                    int refused = 0;
                    for (int i = 1; i <= 2 * RATE; i++) {
                        boolean read = i % 2 == 1;
                        String body = read ? READ.formatted(i, "") : PROMPT.formatted(i, "");
                        McpHttp.Reply reply = i <= RATE
                                ? http.post(Optional.of(session), body.getBytes(StandardCharsets.UTF_8),
                                        alice.headers(), GUARD)
                                : post(http, alice, stateless(i, read ? "resources/read" : "prompts/get",
                                        read ? READ_PARAMS : PROMPT_PARAMS), read ? "resources/read" : "prompts/get",
                                        read ? URI : "simple-prompt");
                        tally.answeredOnce(reply, i);
                        JsonNode answer = reply.answer(i).orElse(null);
                        if (answer != null && answer.has("result")) {
                            served++;
                        } else if (answer != null
                                && "RATE_LIMITED".equals(answer.at("/error/data/code").asString(""))) {
                            refused++;
                            int code = answer.at("/error/code").asInt();
                            if (code != -32603 || !answer.at("/error/data/retryAfterMs").isNumber()) {
                                tally.problem("a rate refusal as " + shorten(Optional.of(answer)));
                            }
                        }
                    }
                    // The bucket refills one call in 12 s; the attack takes a second or two.
                    if (served > RATE + 1) {
                        tally.problem(served + " of " + 2 * RATE + " reads and prompts served on a rate of " + RATE
                                + "/m (" + refused + " refused)");
                    } else {
                        tally.note(served + " served, " + refused + " refused RATE_LIMITED");
                    }
                    McpHttp.Reply other = post(http, bob, stateless(99, "resources/read", READ_PARAMS),
                            "resources/read", URI);
                    tally.answeredOnce(other, 99);
                    if (other.answer(99).filter(a -> a.has("result")).isEmpty()) {
                        tally.problem("another key's read was not served: " + shorten(other.answer(99)));
                    }
                });
    }

    static final String URI = "demo://resource/dynamic/text/1";
    static final String READ_PARAMS = "{\"uri\":\"" + URI + "\"";
    static final String PROMPT_PARAMS = "{\"name\":\"simple-prompt\"";
    static final String READ = "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"resources/read\",\"params\":"
            + READ_PARAMS + "%s}}";
    static final String PROMPT = "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"prompts/get\",\"params\":"
            + PROMPT_PARAMS + "%s}}";

    /** An API key and the keys-file entry of its digest (the key itself is never written). */
    record Key(String name, String key) {

        static Key fresh(String name) {
            byte[] raw = new byte[32];
            new SecureRandom().nextBytes(raw);
            return new Key(name, "wdn_" + Base64.getUrlEncoder().withoutPadding().encodeToString(raw));
        }

        String entry() {
            try {
                byte[] d = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
                return "  - { name: " + name + ", sha256: " + HexFormat.of().formatHex(d) + ", scopes: [mcp:tools] }\n";
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        Map<String, String> headers() {
            return Map.of("X-API-Key", key);
        }
    }

    /** server-everything alone (names as it gives them), behind these API keys, with {@code topSettings}. */
    static String config(List<Key> keys, String topSettings) throws Exception {
        Path file = Files.createTempDirectory("warden-attack-keys").resolve("api-keys.yaml");
        StringBuilder document = new StringBuilder("keys:\n");
        keys.forEach(k -> document.append(k.entry()));
        Files.writeString(file, document);
        return "http: { port: 0 }\nauth:\n  scopes: [mcp:tools]\n  apiKeys: { file: \"" + file + "\" }\n" + topSettings
                + "upstreams:\n  everything:\n    command: [%s, %s, stdio]\n".formatted(Target.NODE, Target.EVERYTHING);
    }

    /** A stateless (2026-07-28) request: {@code params} is an object's text without its closing brace. */
    static String stateless(int id, String method, String params) {
        return """
                {"jsonrpc":"2.0","id":%d,"method":"%s","params":%s,"_meta":{\
                "io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},\
                "io.modelcontextprotocol/clientInfo":{"name":"shares-%d","version":"1"}}}}""".formatted(id, method,
                params, id);
    }

    /** Posts a stateless request as {@code key}, with the headers that version asks for. */
    static McpHttp.Reply post(McpHttp http, Key key, String body, String method, String name) {
        return post(http, key, body, method, name, GUARD);
    }

    /** The same, with a guard of its own on the whole reply. */
    static McpHttp.Reply post(McpHttp http, Key key, String body, String method, String name,
                              Duration guard) {
        try {
            return http.post(Optional.empty(), body.getBytes(StandardCharsets.UTF_8), Map.of("X-API-Key", key.key(),
                    "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", method, "Mcp-Name", name), guard);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A session for {@code key}: initialize and initialized, each with the key. */
    static String initialize(McpHttp http, Key key) throws Exception {
        McpHttp.Reply reply = http.post(Optional.empty(), McpHttp.initializeRequest(0, "{}")
                .getBytes(StandardCharsets.UTF_8), key.headers(), GUARD);
        String session = reply.session().orElseThrow(() -> new IllegalStateException("no session: " + reply));
        http.post(Optional.of(session), "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"
                .getBytes(StandardCharsets.UTF_8), key.headers(), GUARD);
        return session;
    }

    /**
     * Gives the flood's requests a moment to reach the gateway and take their places: until the
     * first of them is answered (a refusal past the share comes at the queue wait), at most 1 s.
     */
    private static void waitForGateway(List<CompletableFuture<McpHttp.Reply>> flood) {
        try {
            CompletableFuture.anyOf(flood.toArray(CompletableFuture[]::new)).get(1, TimeUnit.SECONDS);
        } catch (Exception e) {
            // none answered within the second: the calls run (or wait), as the attack wants
        }
    }

    private static String shorten(Optional<JsonNode> answer) {
        String text = answer.map(JsonNode::toString).orElse("no answer");
        return text.length() > 300 ? text.substring(0, 300) + "…" : text;
    }
}
