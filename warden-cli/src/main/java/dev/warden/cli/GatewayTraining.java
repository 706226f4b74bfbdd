package dev.warden.cli;

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

/**
 * The client of the launcher's training run for {@code warden gateway}'s start-up cache (a process
 * of its own, so that none of its classes goes into the gateway's cache): replays the lines of
 * stdin, the session {@code wrap}'s training replays (initialize, lists, calls that succeed and
 * fail in every way, a malformed message), as one MCP session over Streamable HTTP at the URL
 * given, ended by a DELETE; twice, since a new session's set-up is part of what a gateway does
 * first. Any answer is fine (a failure is what is being trained); exits 1 when the gateway gives
 * no session, so the launcher keeps no cache made from a gateway that did not serve.
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
                System.err.println("warden: the gateway's training session got no session id");
                System.exit(1);
            }
        }
    }

    private static boolean session(HttpClient http, URI url, List<String> lines) throws IOException, InterruptedException {
        Optional<String> session = Optional.empty();
        for (String line : lines) {
            HttpRequest.Builder post = HttpRequest.newBuilder(url).timeout(TIMEOUT)
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(line));
            session.ifPresent(id -> post.header("Mcp-Session-Id", id).header("MCP-Protocol-Version", "2025-06-18"));
            HttpResponse<String> answer = http.send(post.build(), HttpResponse.BodyHandlers.ofString());
            if (session.isEmpty()) {
                session = answer.headers().firstValue("Mcp-Session-Id");
                if (session.isEmpty()) {
                    return false;
                }
            }
        }
        String id = session.orElseThrow();
        http.send(HttpRequest.newBuilder(url).timeout(TIMEOUT).header("Mcp-Session-Id", id).DELETE().build(),
                HttpResponse.BodyHandlers.discarding());
        return true;
    }
}
