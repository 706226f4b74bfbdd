package dev.warden.cli;

import dev.warden.core.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The client of the launcher's training run for {@code warden gateway}'s start-up cache (a process
 * of its own, so that none of its classes goes into the gateway's cache): replays the lines of
 * stdin, the session {@code wrap}'s training replays (initialize, lists, calls that succeed and
 * fail in every way, a malformed message), as one MCP session over Streamable HTTP at the URL
 * given, ended by a DELETE; twice, since a new session's set-up is part of what a gateway does
 * first. Any answer is fine (a failure is what is being trained); exits 1 when the gateway gives
 * no session or no protocol version, so the launcher keeps no cache made from a gateway that did
 * not serve.
 *
 * <p>Usage: {@code java -cp warden.jar dev.warden.cli.GatewayTraining URL < training.jsonl}
 */
public final class GatewayTraining {

    private static final int SESSIONS = 2;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private GatewayTraining() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        URI url = URI.create(args[0]);
        List<String> lines = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).lines()
                .filter(l -> !l.isBlank()).toList();
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT).build();
        for (int i = 0; i < SESSIONS; i++) {
            if (!session(http, url, lines)) {
                System.err.println("warden: the gateway's training session got no session id or protocol version");
                System.exit(1);
            }
        }
    }

    private static boolean session(HttpClient http, URI url, List<String> lines) throws IOException, InterruptedException {
        Optional<String> session = Optional.empty();
        String version = "";
        for (String line : lines) {
            HttpRequest.Builder post = HttpRequest.newBuilder(url).timeout(TIMEOUT)
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(line));
            if (session.isPresent()) {
                post.header("Mcp-Session-Id", session.get()).header("MCP-Protocol-Version", version);
            }
            HttpResponse<String> answer = http.send(post.build(), HttpResponse.BodyHandlers.ofString());
            if (session.isEmpty()) {
                session = answer.headers().firstValue("Mcp-Session-Id");
                Optional<String> negotiated = negotiatedVersion(
                        answer.headers().firstValue("Content-Type").orElse(""), answer.body());
                if (session.isEmpty() || negotiated.isEmpty()) {
                    return false;
                }
                version = negotiated.get();
            }
        }
        String id = session.orElseThrow();
        http.send(HttpRequest.newBuilder(url).timeout(TIMEOUT).header("Mcp-Session-Id", id).DELETE().build(),
                HttpResponse.BodyHandlers.discarding());
        return true;
    }

    /**
     * The version the gateway chose in its answer to initialize, which every later request of the
     * session must name; the answer is one JSON body or an event stream, whose events are read one
     * by one. Empty when no message in it is such an answer.
     */
    static Optional<String> negotiatedVersion(String contentType, String body) {
        List<String> messages = contentType.startsWith("text/event-stream")
                ? body.lines().filter(l -> l.startsWith("data:")).map(l -> l.substring(5).strip()).toList()
                : List.of(body);
        for (String message : messages) {
            try {
                JsonNode version = Json.mapper().readTree(message).path("result").path("protocolVersion");
                if (version.isString()) {
                    return Optional.of(version.asString());
                }
            } catch (JacksonException notJson) {
                // another event, or no JSON: not the answer
            }
        }
        return Optional.empty();
    }
}
