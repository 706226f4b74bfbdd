package dev.warden.gateway;

import dev.warden.core.json.Json;
import dev.warden.core.transport.Transport;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * An upstream's connection whose tool calls are answered the way servers on other SDKs answer
 * them (a JSON-RPC error where the TypeScript SDK v1 turns a thrown error into -32603, or an
 * {@code isError} result), by tool name; everything else goes to the real server behind it.
 * Counts the calls that reached it.
 */
final class AnsweringCalls extends ForwardingTransport {

    private final Map<String, Function<JsonNode, String>> answers;
    private final AtomicInteger calls;

    /** @param answers per tool, the arguments to the JSON of {@code "result": …} or {@code "error": …} (one member) */
    AnsweringCalls(Transport inner, Map<String, Function<JsonNode, String>> answers, AtomicInteger calls) {
        super(inner);
        this.answers = answers;
        this.calls = calls;
    }

    /** An answer that is no answer: the server's process dies (its connection closes) instead. */
    static final String CRASH = "crash";

    static String error(int code, String message) {
        return "\"error\":{\"code\":" + code + ",\"message\":" + Json.mapper().writeValueAsString(message) + "}";
    }

    static String toolError(String text) {
        return "\"result\":{\"content\":[{\"type\":\"text\",\"text\":" + Json.mapper().writeValueAsString(text)
                + "}],\"isError\":true}";
    }

    static String text(String text) {
        return "\"result\":{\"content\":[{\"type\":\"text\",\"text\":" + Json.mapper().writeValueAsString(text)
                + "}]}";
    }

    @Override
    public void send(String frame) {
        JsonNode message = Json.mapper().readTree(frame);
        Function<JsonNode, String> answer = "tools/call".equals(message.path("method").asString(""))
                ? answers.get(message.at("/params/name").asString("")) : null;
        if (answer == null) {
            super.send(frame);
            return;
        }
        calls.incrementAndGet();
        String said = answer.apply(message.at("/params/arguments"));
        if (CRASH.equals(said)) {
            Thread.ofVirtual().start(this::close);
            return;
        }
        toGateway("{\"jsonrpc\":\"2.0\",\"id\":" + message.get("id") + "," + said + "}");
    }
}
