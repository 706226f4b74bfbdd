package dev.warden.e2e.attack;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Decisions made on the name the upstream acts on: resource URIs as they will be read, upstream names as they will be split. */
final class Canonical {

    static final Duration GUARD = Duration.ofSeconds(30);
    /** Resources only under demo://resource/dynamic/ (tools, prompts: everything, so the honest client still echoes). */
    static final String ONLY_DYNAMIC = """
            access:
              rules:
                - 'mcp.kind != "resource"'
                - 'mcp.kind == "resource" && mcp.uri.startsWith("demo://resource/dynamic/")'
            """;

    private Canonical() {
    }

    static List<Attack> all() {
        return List.of(dotSegments(), collidingUpstreamNames());
    }

    /**
     * A rule allows only server-everything's dynamic resources; the attacker reads a static document
     * through {@code dynamic/text/../../static/...} and the {@code %2e%2e} form (finding 2: the rule
     * saw the raw URI, server-everything's URL parser resolved it and read the hidden document).
     */
    static Attack dotSegments() {
        return Attack.onGateway("dot segments past an access rule",
                "resources/read of demo://resource/dynamic/text/../../static/document/architecture.md (and %2e%2e) "
                        + "with a rule allowing only demo://resource/dynamic/",
                (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    Optional<String> session = Optional.of(http.initialize("{}", GUARD));
                    // The gateway learns which upstream serves demo://resource/dynamic/text/ from the list.
                    McpHttp.Reply templates = http.post(session,
                            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/templates/list\",\"params\":{}}", GUARD);
                    tally.answeredOnce(templates, 1);
                    List<String> uris = List.of(
                            "demo://resource/dynamic/text/../../static/document/architecture.md",
                            "demo://resource/dynamic/text/%2e%2e/%2e%2e/static/document/architecture.md",
                            "demo://resource/dynamic/text/%2E%2E/..%2Fstatic/document/architecture.md");
                    int id = 2;
                    int refused = 0;
                    for (String uri : uris) {
                        McpHttp.Reply reply = http.post(session, "{\"jsonrpc\":\"2.0\",\"id\":" + id
                                + ",\"method\":\"resources/read\",\"params\":{\"uri\":\"" + uri + "\"}}", GUARD);
                        tally.answeredOnce(reply, id);
                        Optional<tools.jackson.databind.JsonNode> answer = reply.answer(id);
                        if (answer.map(a -> a.has("result")).orElse(false)) {
                            tally.problem("read " + uri + " past a rule allowing only demo://resource/dynamic/: "
                                    + answer.get().path("result").path("contents").path(0).path("uri").asString(""));
                        } else if (answer.map(a -> a.path("error").path("code").asInt() == -32602).orElse(false)) {
                            refused++;
                        }
                        id++;
                    }
                    tally.note(refused + " of " + uris.size() + " refused as invalid params (-32602)");
                }).startedBy(scale -> Target.gateway(ONLY_DYNAMIC + Target.standardConfig(List.of(), List.of()),
                        Map.of()));
    }

    /**
     * Upstreams {@code h} and {@code h_} (finding 6: {@code h_}'s tools were listed as
     * {@code h___x}, each twice, and calls ran on {@code h}): the gateway must refuse to start,
     * naming both.
     */
    static Attack collidingUpstreamNames() {
        return Attack.onGateway("colliding upstream names",
                "a configuration with upstreams h (server-everything) and h_ (the hostile server): h___x is both",
                (target, scale, tally) -> {
                    String yaml = "http: { port: 0 }\nupstreams:\n  h:\n    command: [%s, %s, stdio]\n  h_:\n    command: [%s, %s]\n"
                            .formatted(Target.NODE, Target.EVERYTHING, Target.NODE, Target.HOSTILE);
                    Target colliding;
                    try {
                        colliding = Target.gateway(yaml, Map.of());
                    } catch (IllegalStateException e) {
                        String why = e.getMessage();
                        if (!(why.contains("upstreams.h ") && why.contains("upstreams.h_ "))) {
                            tally.problem("the gateway refused to start without naming both upstreams: " + why);
                        } else {
                            tally.note("refused to start: " + why.substring(why.indexOf("upstreams.h ")).strip());
                        }
                        return;
                    }
                    try (Target served = colliding) {
                        McpHttp http = new McpHttp(served.url.orElseThrow());
                        Optional<String> session = Optional.of(http.initialize("{}", GUARD));
                        McpHttp.Reply tools = http.post(session,
                                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}", GUARD);
                        long prefixed = tools.answer(1).map(a -> a.path("result").path("tools").valueStream()
                                .filter(t -> t.path("name").asString("").startsWith("h___")).count()).orElse(0L);
                        tally.problem("the gateway served upstreams h and h_ together (" + prefixed
                                + " tools named h___..., each of which h would also claim)");
                    }
                });
    }
}
