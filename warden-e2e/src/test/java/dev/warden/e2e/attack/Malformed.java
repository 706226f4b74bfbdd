package dev.warden.e2e.attack;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What a parser must survive: wrong and duplicate ids, batches, a 50 MB line, bytes that are not UTF-8, depth, huge numbers. */
final class Malformed {

    static final Duration GUARD = Duration.ofSeconds(30);

    private Malformed() {
    }

    static List<Attack> all() {
        return List.of(wrongAndDuplicateIds(), batches(), fiftyMegabyteLine(), nonUtf8(), deepNesting(), hugeNumbers());
    }

    static Attack wrongAndDuplicateIds() {
        return Attack.onGateway("wrong and duplicate ids",
                "two POSTs in flight with one id (finding 8), string ids, a 100 KB id, a response to nothing; an upstream answering ids never asked and the same id twice",
                (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    Optional<String> session = Optional.of(http.initialize("{}", GUARD));
                    Parallel.run(2, 2, i -> {
                        try {
                            tally.answeredOnce(http.post(session, McpHttp.call(7, "hostile__sleep", "{\"ms\":1500}"),
                                    Duration.ofSeconds(10)), 7);
                        } catch (Exception e) {
                            tally.unanswered(7, e);
                        }
                    });
                    String longId = "i".repeat(100_000);
                    for (String id : List.of("seven", longId)) {
                        McpHttp.Reply reply = http.post(session, """
                                {"jsonrpc":"2.0","id":"%s","method":"tools/call","params":{"name":"everything__echo",\
                                "arguments":{"message":"string id"}}}""".formatted(id), GUARD);
                        tally.answeredOnce(reply, id);
                    }
                    int status = http.post(session, "{\"jsonrpc\":\"2.0\",\"id\":424242,\"result\":{}}", GUARD).status();
                    tally.note("a response to nothing: HTTP " + status);
                    McpHttp.Reply reply = http.post(session, McpHttp.call(8, "hostile__wrong-ids", "{}"), GUARD);
                    tally.answeredOnce(reply, 8);
                    if (!reply.answer(8).map(a -> a.toString().contains("the real answer")).orElse(false)) {
                        tally.problem("the caller did not get the upstream's first answer: " + reply.answer(8));
                    }
                }).repeated();
    }

    /** A JSON-RPC batch on a session (finding 7: never answered, the POST hangs). */
    static Attack batches() {
        return Attack.onGateway("batches", "a JSON array of two requests on a session", (target, scale, tally) -> {
            McpHttp http = new McpHttp(target.url.orElseThrow());
            Optional<String> session = Optional.of(http.initialize("{}", GUARD));
            try {
                McpHttp.Reply reply = http.post(session, "[" + McpHttp.call(1, "everything__echo", "{\"message\":\"a\"}")
                        + "," + McpHttp.call(2, "everything__echo", "{\"message\":\"b\"}") + "]", Duration.ofSeconds(10));
                tally.expected.incrementAndGet();
                boolean eachOnce = reply.answersTo(1) == 1 && reply.answersTo(2) == 1;
                boolean refused = reply.messages().size() == 1 && reply.messages().get(0).has("error");
                if (eachOnce || refused) {
                    tally.received.incrementAndGet();
                } else {
                    tally.problem("the batch's reply held " + reply.messages() + " (HTTP " + reply.status() + ")");
                }
            } catch (Exception e) {
                tally.unanswered("batch", e);
            }
        }).repeated();
    }

    /** A 50 MB line from the upstream, and a 50 MB request from a client. */
    static Attack fiftyMegabyteLine() {
        return Attack.onGateway("50 MB line", "a 50 MiB answer line from the upstream; a 50 MiB request body",
                (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    Optional<String> session = Optional.of(http.initialize("{}", GUARD));
                    McpHttp.Reply big = http.post(session, McpHttp.call(1, "hostile__big-line", "{\"mb\":50}"),
                            Duration.ofMinutes(2));
                    tally.answeredOnce(big, 1);
                    // To the hostile upstream: whether server-everything survives 50 MiB is its own business, not the gateway's.
                    String body = McpHttp.call(2, "hostile__echo", "{\"message\":\"" + "m".repeat(50 * 1024 * 1024) + "\"}");
                    tally.answeredOnceByIdOrNull(http.post(session, body, Duration.ofMinutes(2)), 2);
                });
    }

    /** An upstream answer and a request body holding bytes that are not UTF-8. */
    static Attack nonUtf8() {
        return Attack.onGateway("non-UTF-8", "an upstream answer and a request body with bytes that are not UTF-8",
                (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    Optional<String> session = Optional.of(http.initialize("{}", GUARD));
                    long start = System.nanoTime();
                    tally.answeredOnce(http.post(session, McpHttp.call(1, "hostile__non-utf8", "{}"), GUARD), 1);
                    tally.note("the upstream's non-UTF-8 answer reached the caller after %d ms"
                            .formatted((System.nanoTime() - start) / 1_000_000));
                    byte[] head = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"everything__echo\",\"arguments\":{\"message\":\""
                            .getBytes(StandardCharsets.UTF_8);
                    byte[] tail = "\"}}}".getBytes(StandardCharsets.UTF_8);
                    byte[] body = new byte[head.length + 4 + tail.length];
                    System.arraycopy(head, 0, body, 0, head.length);
                    System.arraycopy(new byte[] {(byte) 0xff, (byte) 0xfe, (byte) 0xc3, (byte) 0x28}, 0, body, head.length, 4);
                    System.arraycopy(tail, 0, body, head.length + 4, tail.length);
                    tally.answeredOnceByIdOrNull(http.post(session, body, Map.of(), GUARD), 2);
                }).repeated();
    }

    static Attack deepNesting() {
        return Attack.onGateway("deep JSON nesting", "100,000 nested arrays in a call's arguments and as the whole body",
                (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    Optional<String> session = Optional.of(http.initialize("{}", GUARD));
                    String deep = "[".repeat(100_000) + "]".repeat(100_000);
                    tally.answeredOnceByIdOrNull(http.post(session, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
                            + "\"params\":{\"name\":\"everything__echo\",\"arguments\":{\"message\":\"x\",\"deep\":" + deep + "}}}", GUARD), 1);
                    tally.answeredOnceByIdOrNull(http.post(session, deep, GUARD), "whole body");
                    String objects = "{\"a\":".repeat(100_000) + "1" + "}".repeat(100_000);
                    tally.answeredOnceByIdOrNull(http.post(session, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\",\"params\":"
                            + objects + "}", GUARD), 3);
                }).repeated();
    }

    static Attack hugeNumbers() {
        return Attack.onGateway("huge numbers", "a 1,000,000-digit id and argument, an exponent of 999,999,999",
                (target, scale, tally) -> {
                    McpHttp http = new McpHttp(target.url.orElseThrow());
                    Optional<String> session = Optional.of(http.initialize("{}", GUARD));
                    String digits = "9".repeat(1_000_000);
                    tally.answeredOnceByIdOrNull(http.post(session, "{\"jsonrpc\":\"2.0\",\"id\":" + digits
                            + ",\"method\":\"ping\"}", GUARD), "huge id");
                    tally.answeredOnceByIdOrNull(http.post(session, McpHttp.call(2, "everything__get-sum",
                            "{\"a\":" + digits + ",\"b\":1}"), GUARD), 2);
                    tally.answeredOnceByIdOrNull(http.post(session, McpHttp.call(3, "everything__get-sum",
                            "{\"a\":1e999999999,\"b\":1}"), GUARD), 3);
                }).repeated();
    }
}
