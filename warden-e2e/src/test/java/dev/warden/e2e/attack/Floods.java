package dev.warden.e2e.attack;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;

/** Floods: of sessions, calls, notifications both ways, progress nobody asked for, the upstream's own requests. */
final class Floods {

    /**
     * A hang guard: 30 s was once too short in CI for one of the session flood's first initializes
     * (request 12 of 100, the gateway just started, the machine loaded; no log was kept to say why).
     */
    static final Duration GUARD = Duration.ofSeconds(60);

    private Floods() {
    }

    static List<Attack> all() {
        return List.of(sessions(), calls(), clientNotifications(), upstreamLogs(), unknownProgress(),
                serverRequests(), perClientInitializes());
    }

    /** Sessions opened and never closed or used again (finding 6: 114k of them filled the heap). */
    static Attack sessions() {
        return Attack.onGateway("session flood", "sessions opened and abandoned (10,000 in full mode)",
                (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    Parallel.run(scale.sessions(), 16, i -> {
                        try {
                            McpHttp.Reply reply = http.post(Optional.empty(), McpHttp.initializeRequest(i, "{}"), GUARD);
                            tally.answeredOnce(reply, i);
                        } catch (Exception e) {
                            tally.unanswered(i, e);
                        }
                    });
                    tally.note(scale.sessions() + " sessions abandoned");
                }).startedBy(Floods::withSessionExpiry).settling();
    }

    /**
     * The standard gateway with its sessions' idle expiry set to the scale's settle time (the
     * default, 10 minutes, would make the full run wait that long) and its metrics on, so the
     * suite can watch the expiry happen on the gateway's own gauge.
     */
    private static Target withSessionExpiry(Scale scale) throws Exception {
        if (scale.settle().isZero()) {
            return Target.gateway(Target.standardConfig(List.of(), List.of()), Map.of());
        }
        int metricsPort = Target.freePort();
        String yaml = Target.standardConfig("sessions: { idleTimeout: " + scale.settle().toSeconds() + "s }",
                List.of(), List.of()) + "metrics: { port: " + metricsPort + " }\n";
        Target target = Target.gateway(yaml, Map.of());
        target.metricsPort = Optional.of(metricsPort);
        return target;
    }

    /** Echo calls many at once on one session. */
    static Attack calls() {
        return Attack.onGateway("call flood", "tools/call, 32 at once on one session", (target, scale, tally) -> {
            McpHttp http = new McpHttp(target.url.orElseThrow());
            String session = http.initialize("{}", GUARD);
            AtomicLong refused = new AtomicLong();
            Parallel.run(scale.calls(), 32, i -> {
                long id = 1_000 + i;
                try {
                    McpHttp.Reply reply = http.post(Optional.of(session),
                            McpHttp.call(id, "everything__echo", "{\"message\":\"flood\"}"), GUARD);
                    tally.answeredOnce(reply, id);
                    if (reply.answer(id).map(a -> a.at("/result/isError").asBoolean(false)).orElse(false)) {
                        refused.incrementAndGet();
                    }
                } catch (Exception e) {
                    tally.unanswered(id, e);
                }
            });
            tally.note(refused.get() + " refused as isError");
        });
    }

    /** Notifications from a client: cancellations and progress for requests and tokens that do not exist. */
    static Attack clientNotifications() {
        return Attack.onGateway("client notification flood",
                "notifications/cancelled and notifications/progress for unknown ids and tokens",
                (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    String session = http.initialize("{}", GUARD);
                    AtomicLong accepted = new AtomicLong();
                    Parallel.run(scale.notifications() / 5, 16, i -> {
                        String body = i % 2 == 0
                                ? "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":" + (900_000 + i) + "}}"
                                : "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"nobody-" + i + "\",\"progress\":1}}";
                        try {
                            if (http.post(Optional.of(session), body, GUARD).status() == 202) {
                                accepted.incrementAndGet();
                            }
                        } catch (Exception e) {
                            tally.problem("a notification's POST failed: " + e.getClass().getSimpleName());
                        }
                    });
                    tally.note(accepted.get() + " of " + scale.notifications() / 5 + " notification POSTs accepted (202)");
                });
    }

    /** The upstream floods log notifications during a call whose stream its client reads. */
    static Attack upstreamLogs() {
        return Attack.onGateway("upstream log flood", "notifications/message from the upstream during a call",
                (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    String session = http.initialize("{}", GUARD);
                    http.post(Optional.of(session),
                            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"logging/setLevel\",\"params\":{\"level\":\"debug\"}}", GUARD);
                    McpHttp.Reply reply = http.post(Optional.of(session), McpHttp.call(2, "hostile__flood-log",
                            "{\"count\":" + scale.notifications() + ",\"size\":512}"), Duration.ofMinutes(5));
                    tally.answeredOnce(reply, 2);
                    tally.note(reply.messages().stream().filter(m -> m.has("method")).count()
                            + " of " + scale.notifications() + " log notifications reached the caller");
                });
    }

    /** Progress the upstream sends for tokens nobody gave it. */
    static Attack unknownProgress() {
        return Attack.onGateway("unknown progress flood", "notifications/progress from the upstream for tokens nobody asked for",
                (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    String session = http.initialize("{}", GUARD);
                    McpHttp.Reply reply = http.post(Optional.of(session), McpHttp.call(2, "hostile__unknown-progress",
                            "{\"count\":" + scale.notifications() + "}"), Duration.ofMinutes(5));
                    tally.answeredOnce(reply, 2);
                    long leaked = reply.messages().stream().filter(m -> m.has("method")).count();
                    if (leaked > 0) {
                        tally.problem(leaked + " progress notifications for tokens the caller never gave reached it");
                    }
                });
    }

    /**
     * The upstream's own requests (ping, roots, sampling, elicitation) in a loop, all at once. The
     * call sends no progress while its requests are answered, so it has 60 s, not the hostile
     * server's 5 s: on a loaded machine a timeout would be read as answers lost.
     */
    static Attack serverRequests() {
        return Attack.onGateway("server-to-client request loop",
                "ping, roots/list, sampling and elicitation requests from the upstream, all at once",
                (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    String session = http.initialize("{}", GUARD);
                    McpHttp.Reply reply = http.post(Optional.of(session), McpHttp.call(2, "hostile__ask-loop",
                            "{\"count\":" + scale.asks() + ",\"waitMs\":20000}"), Duration.ofMinutes(2));
                    tally.answeredOnce(reply, 2);
                    Optional<JsonNode> counts = reply.answer(2).map(a -> a.at("/result/content/0/text"))
                            .filter(JsonNode::isString).map(t -> McpHttp.JSON.readTree(t.asString()))
                            .filter(JsonNode::isObject);
                    if (counts.isEmpty()) {
                        tally.problem("the upstream's count of answers did not come back: " + reply.answer(2));
                        return;
                    }
                    long answered = counts.get().path("answered").asLong();
                    tally.counted(scale.asks(), answered);
                    if (counts.get().path("duplicated").asLong() > 0) {
                        tally.problem(counts.get().path("duplicated").asLong() + " of the upstream's requests answered twice");
                    }
                    tally.note("upstream's requests answered: " + answered + " of " + scale.asks());
                }).startedBy(scale -> Target.gateway(Target.standardConfig(List.of(),
                        List.of("toolTimeouts: { ask-loop: 60s }")), Map.of()));
    }

    /**
     * The bound on the gateway's processes: the per-client upstream's default {@code maxConnections}
     * (16, {@code Limits.DEFAULT_MAX_CONNECTIONS}) plus the one shared server-everything.
     */
    static final int PROCESS_BOUND = dev.warden.gateway.config.Limits.DEFAULT_MAX_CONNECTIONS + 1;

    /** Initializes against a per-client upstream (finding 6: 60 of them started 61 processes). */
    static Attack perClientInitializes() {
        return new Attack("perClient initializes",
                "sessions on a perClient upstream, each a process (bound: " + PROCESS_BOUND + " processes)",
                scale -> Target.gateway(Target.standardConfig(List.of(), List.of("perClient: true")), Map.of()),
                Optional.of("everything__echo"), Attack.RSS_BOUND_MIB, false, (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    long most = target.upstreamProcesses();
                    for (int i = 0; i < scale.perClientSessions(); i++) {
                        try {
                            McpHttp.Reply init = http.post(Optional.empty(), McpHttp.initializeRequest(i, "{}"), GUARD);
                            tally.answeredOnce(init, i);
                            if (init.session().isPresent()) {
                                Optional<String> session = init.session();
                                http.post(session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", GUARD);
                                McpHttp.Reply reply = http.post(session,
                                        McpHttp.call(1, "hostile__echo", "{\"message\":\"mine\"}"), GUARD);
                                tally.answeredOnce(reply, 1);
                            }
                        } catch (Exception e) {
                            tally.unanswered(i, e);
                        }
                        most = Math.max(most, target.upstreamProcesses());
                    }
                    tally.note("at most " + most + " upstream processes for " + scale.perClientSessions() + " sessions");
                    if (most > PROCESS_BOUND) {
                        tally.problem(most + " upstream processes, over the bound of " + PROCESS_BOUND);
                    }
                });
    }
}
