package dev.warden.e2e.attack;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/** What one client must not get from, or cost, another, or an upstream from the gateway: permits, secrets, roots. */
final class Isolation {

    static final Duration GUARD = Duration.ofSeconds(30);

    private Isolation() {
    }

    static List<Attack> all() {
        return List.of(parkedCalls(), envLeak(), crossClientRoots());
    }

    /** How many concurrent calls the attacked upstream allows, so parking a few more exhausts it. */
    static final int PERMITS = 4;

    /**
     * Stateless (2026-07-28) calls whose upstream asks the client something and that the client
     * never resumes (finding 2: they kept their concurrency permits for ever, the upstream RATE_LIMITED
     * for everyone).
     */
    static Attack parkedCalls() {
        return Attack.onGateway("parked calls never resumed",
                PERMITS + " stateless 2026-07-28 elicitation calls left parked on an upstream allowing " + PERMITS + " at once",
                (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    AtomicInteger inputRequired = new AtomicInteger();
                    for (int i = 0; i < PERMITS; i++) {
                        String body = """
                                {"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"everything__trigger-elicitation-request",\
                                "arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",\
                                "io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},\
                                "io.modelcontextprotocol/clientInfo":{"name":"parker-%d","version":"1"}}}}""".formatted(i, i);
                        McpHttp.Reply reply = http.post(Optional.empty(), body.getBytes(StandardCharsets.UTF_8),
                                Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call",
                                        "Mcp-Name", "everything__trigger-elicitation-request"), GUARD);
                        tally.answeredOnce(reply, i);
                        if (reply.answer(i).map(a -> a.toString().contains("requestState")).orElse(false)) {
                            inputRequired.incrementAndGet();
                        }
                    }
                    tally.note(inputRequired.get() + " calls parked (input required)");
                    Honest later = new Honest(http, "everything__echo");
                    int unserved = later.sample(2).unserved.get();
                    if (unserved > 0) {
                        tally.problem("after the parked calls, " + unserved + " of 2 echoes of a new client were not served");
                    }
                }).startedBy(scale -> Target.gateway(Target.standardConfig(List.of("maxConcurrent: " + PERMITS), List.of()),
                        Map.of()));
    }

    static final String CANARY_NAME = "WARDEN_ATTACK_CANARY";

    /** The gateway's environment must not reach a stdio upstream beyond what its config names (finding 1). */
    static Attack envLeak() {
        String canary = "canary-" + UUID.randomUUID();
        return Attack.onGateway("environment leak", "get-env of server-everything, with a variable in the gateway's environment the config does not name",
                (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    Optional<String> session = Optional.of(http.initialize("{}", GUARD));
                    McpHttp.Reply reply = http.post(session, McpHttp.call(1, "everything__get-env", "{}"), GUARD);
                    tally.answeredOnce(reply, 1);
                    String text = reply.answer(1).map(Object::toString).orElse("");
                    if (text.contains(canary) || text.contains(CANARY_NAME)) {
                        tally.problem("get-env showed " + CANARY_NAME + ", which the config never named");
                    }
                }).repeated().startedBy(scale -> Target.gateway(Target.standardConfig(List.of(), List.of()), Map.of(CANARY_NAME, canary)));
    }

    /**
     * Two clients declaring roots share server-everything; B has a call in flight when A says its
     * roots changed (finding 10: the upstream's roots question went to B, and A then read B's roots).
     */
    static Attack crossClientRoots() {
        return Attack.onGateway("cross-client roots", "A's roots/list_changed while B has a call in flight; A then reads the upstream's roots",
                (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    String capabilities = "{\"roots\":{\"listChanged\":true}}";
                    Optional<String> a = Optional.of(http.initialize(capabilities, GUARD));
                    Optional<String> b = Optional.of(http.initialize(capabilities, GUARD));
                    AtomicInteger asked = new AtomicInteger();
                    Thread call = Thread.ofVirtual().start(() -> {
                        try {
                            AtomicInteger answers = new AtomicInteger();
                            http.postStreaming(b, McpHttp.call(1, "everything__trigger-long-running-operation",
                                    "{\"duration\":4,\"steps\":4}"), GUARD, message -> {
                                        if ("roots/list".equals(message.path("method").asString(""))) {
                                            asked.incrementAndGet();
                                            try {
                                                http.post(b, "{\"jsonrpc\":\"2.0\",\"id\":" + message.get("id")
                                                        + ",\"result\":{\"roots\":[{\"uri\":\"file:///attack/b-private\",\"name\":\"b\"}]}}", GUARD);
                                            } catch (Exception e) {
                                                tally.problem("B could not answer the roots question: " + e);
                                            }
                                        } else if (!message.has("method") && message.path("id").asLong(-1) == 1) {
                                            answers.incrementAndGet();
                                        }
                                    });
                            tally.counted(1, answers.get() == 1 ? 1 : 0);
                        } catch (Exception e) {
                            tally.unanswered(1, e);
                        }
                    });
                    Thread.sleep(1_000); // B's call is in flight (it lasts 4 s)
                    http.post(a, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"}", GUARD);
                    call.join(GUARD.toMillis());
                    try {
                        McpHttp.Reply reply = http.post(a, McpHttp.call(2, "everything__get-roots-list", "{}"),
                                Duration.ofSeconds(10));
                        tally.answeredOnce(reply, 2);
                        if (reply.answer(2).map(Object::toString).orElse("").contains("b-private")) {
                            tally.problem("A read B's roots through the shared upstream");
                        }
                    } catch (java.io.IOException e) {
                        tally.unanswered(2, e);
                    }
                    tally.note("B was asked for roots " + asked.get() + " time(s)");
                });
    }
}
