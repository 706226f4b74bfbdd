package dev.warden.e2e;

import dev.warden.core.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;

/**
 * One tools/call through HAProxy on a session, seen as a client sees it: which replica took it
 * (HAProxy's {@code X-Warden-Replica}, known as soon as the headers arrive, so a caller can count
 * the calls in flight on each replica) and how it ended.
 */
record FrontCall(Ending ending, String replica, String detail, JsonNode answer) {

    enum Ending {
        /** Answered with a result. */
        ANSWERED,
        /** Answered with a JSON-RPC error (a tool error is a result, not this). */
        ERROR,
        /**
         * HAProxy's own 502/503/504, as the JSON-RPC error scripts/cluster configures (a 502 or 504
         * with "Connection: close").
         */
        PROXY_ERROR,
        /** The response began (200, an event stream) and was cut before the answer. */
        CUT_STREAM,
        /** Anything else: an unexpected status (404 "session not found" among them). */
        OTHER
    }

    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    static FrontCall send(String url, Map<String, String> headers, String session, int id, String tool,
            String argsJson, Consumer<String> started) throws InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", AuthedHttp.VERSION)
                .POST(HttpRequest.BodyPublishers.ofString(AuthedHttp.callBody(id, tool, argsJson)));
        headers.forEach(request::header);
        HttpResponse<InputStream> response;
        try {
            response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            return new FrontCall(Ending.OTHER, "?", "no response from HAProxy: " + e, null);
        }
        String replica = response.headers().firstValue("X-Warden-Replica").orElse("?");
        started.accept(replica);
        String body;
        try (InputStream in = response.body()) {
            body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return new FrontCall(Ending.CUT_STREAM, replica, e.toString(), null);
        }
        int status = response.statusCode();
        if (status == 200) {
            JsonNode answer;
            try {
                answer = AuthedHttp.answer(body, id);
            } catch (AssertionError noAnswer) {
                return new FrontCall(Ending.CUT_STREAM, replica, "the stream ended without the answer", null);
            }
            return new FrontCall(answer.has("result") ? Ending.ANSWERED : Ending.ERROR, replica,
                    answer.has("result") ? "" : answer.get("error").toString(), answer);
        }
        if (status == 502 || status == 503 || status == 504) {
            JsonNode error;
            try {
                error = Json.mapper().readTree(body);
            } catch (RuntimeException notJson) {
                return new FrontCall(Ending.OTHER, replica, status + " " + body, null);
            }
            // After a 502 or 504 HAProxy closes the connection: unless its answer says so, the
            // client's retry would be written onto it and get no answer at all.
            boolean saysClosed = status == 503
                    || response.headers().firstValue("Connection").orElse("").equalsIgnoreCase("close");
            boolean ours = error.path("id").asInt(-1) == id && error.at("/error/data/retryable").asBoolean(false)
                    && response.headers().firstValue("Content-Type").orElse("").startsWith("application/json")
                    && saysClosed;
            return new FrontCall(ours ? Ending.PROXY_ERROR : Ending.OTHER, replica, status + " " + body, error);
        }
        return new FrontCall(Ending.OTHER, replica, status + " " + body, null);
    }

    boolean answered() {
        return ending == Ending.ANSWERED;
    }
}
