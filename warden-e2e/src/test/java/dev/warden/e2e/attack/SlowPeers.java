package dev.warden.e2e.attack;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/** Peers that hold the gateway's resources by being slow: a stdin never read, a stream never read, slowloris, a fork. */
final class SlowPeers {

    static final Duration GUARD = Duration.ofSeconds(60);

    private SlowPeers() {
    }

    static List<Attack> all() {
        return List.of(upstreamNeverReads(), streamNeverRead(), slowlorisHeaders(), slowlorisBody(), forkAndExit());
    }

    /** The upstream stops reading its stdin; calls keep coming (their writes fill the pipe). */
    static Attack upstreamNeverReads() {
        return Attack.onGateway("upstream never reads stdin", "the hostile upstream stops reading; 40 (200) calls of 64 KiB each follow",
                (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    Optional<String> session = Optional.of(http.initialize("{}", GUARD));
                    tally.answeredOnce(http.post(session, McpHttp.call(1, "hostile__stop-reading", "{}"), GUARD), 1);
                    String payload = "{\"message\":\"" + "w".repeat(64 * 1024) + "\"}";
                    int calls = scale.full() ? 200 : 40;
                    Parallel.run(calls, 40, i -> {
                        long id = 100 + i;
                        try {
                            // Its timeout is 5 s: an answer comes within the guard, or never; the
                            // guard leaves room for the attacker's low-priority threads on a loaded machine.
                            tally.answeredOnce(http.post(session, McpHttp.call(id, "hostile__echo", payload),
                                    GUARD), id);
                        } catch (Exception e) {
                            tally.unanswered(id, e);
                        }
                    });
                });
    }

    /**
     * A client with a 4 KiB receive window calls a tool that floods progress and never reads its
     * stream (finding 3: every other client of that upstream froze); the honest client shares the upstream.
     */
    static Attack streamNeverRead() {
        return Attack.onGateway("SSE stream never read",
                "a progress flood to a client that never reads its stream; the honest client shares that upstream",
                (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    String session = http.initialize("{}", GUARD);
                    String body = """
                            {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hostile__flood-progress",\
                            "arguments":{"count":50000,"size":1024},"_meta":{"progressToken":"never-read"}}}""";
                    try (RawHttp raw = new RawHttp(http.uri(), 4096)) {
                        raw.write(raw.requestHead("Mcp-Session-Id: " + session + "\r\nMCP-Protocol-Version: "
                                + McpHttp.LATEST + "\r\n", body.length()) + body);
                        Thread.sleep(scale.hold().toMillis());
                    }
                    tally.note("stream unread for " + scale.hold().toSeconds() + " s");
                }).honestOn("hostile__echo");
    }

    static Attack slowlorisHeaders() {
        return slowloris("slowloris headers", "connections sending their headers a byte a second", false);
    }

    static Attack slowlorisBody() {
        return slowloris("slowloris body", "POSTs sending a 10 KB body a byte a second", true);
    }

    private static Attack slowloris(String name, String what, boolean body) {
        return Attack.onGateway(name, what + " (50, 500 in full mode)", (target, scale, tally) -> {
            McpHttp http = new McpHttp(target.url.orElseThrow());
            int count = scale.full() ? 500 : 50;
            List<RawHttp> sockets = new ArrayList<>();
            try {
                for (int i = 0; i < count; i++) {
                    RawHttp raw = new RawHttp(http.uri(), 0);
                    sockets.add(raw);
                    raw.write(body ? raw.requestHead("", 10_000) + "{" : "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
                }
                AtomicInteger cut = new AtomicInteger();
                long start = System.nanoTime();
                long firstCut = -1;
                boolean[] gone = new boolean[count];
                while (System.nanoTime() - start < scale.hold().toNanos()) {
                    for (int i = 0; i < count; i++) {
                        if (!gone[i]) {
                            try {
                                sockets.get(i).write(body ? " " : "a");
                            } catch (IOException e) {
                                gone[i] = true;
                            }
                            gone[i] |= sockets.get(i).cut();
                            if (gone[i]) {
                                cut.incrementAndGet();
                                firstCut = firstCut < 0 ? (System.nanoTime() - start) / 1_000_000_000 : firstCut;
                            }
                        }
                    }
                    Thread.sleep(1_000);
                }
                tally.note("the gateway cut " + cut.get() + " of " + count + " within " + scale.hold().toSeconds() + " s"
                        + (firstCut >= 0 ? " (the first after " + firstCut + " s)" : ""));
                if (scale.full() && cut.get() < count) {
                    tally.problem((count - cut.get()) + " of " + count + " slow connections still open after "
                            + scale.hold().toSeconds() + " s");
                }
            } finally {
                for (RawHttp raw : sockets) {
                    raw.close();
                }
            }
        });
    }

    /** The upstream forks a child that keeps its pipes and exits (finding 13: no restart followed). */
    static Attack forkAndExit() {
        return Attack.onGateway("fork and exit", "the upstream forks a child holding its pipes and exits; its next calls",
                (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    Optional<String> session = Optional.of(http.initialize("{}", GUARD));
                    tally.answeredOnce(http.post(session, McpHttp.call(1, "hostile__fork-exit", "{}"), GUARD), 1);
                    long start = System.nanoTime();
                    boolean served = false;
                    for (int i = 0; i < 8 && !served; i++) {
                        long id = 10 + i;
                        McpHttp.Reply reply = http.post(session, McpHttp.call(id, "hostile__echo", "{\"message\":\"again\"}"), GUARD);
                        tally.answeredOnce(reply, id);
                        served = reply.answer(id).map(a -> a.has("result") && !a.at("/result/isError").asBoolean(false))
                                .orElse(false);
                    }
                    if (served) {
                        tally.note("served again after " + (System.nanoTime() - start) / 1_000_000 + " ms");
                    } else {
                        tally.problem("the upstream was not started again: 8 calls after the fork all failed");
                    }
                });
    }
}
