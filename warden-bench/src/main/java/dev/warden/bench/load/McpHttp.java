package dev.warden.bench.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The MCP client of the HTTP benches, written by hand on the JDK's HTTP client so that its own cost
 * is small and the same for every contender: opens a session (initialize, then
 * notifications/initialized), sends a request and reads until its answer (a JSON body or the SSE
 * event carrying it), closes the session (DELETE).
 */
final class McpHttp {

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    /** The Authorization header of each contender that needs one, by its URL. */
    private final Map<URI, String> authorization = new ConcurrentHashMap<>();

    void authorize(URI url, String header) {
        authorization.put(url, header);
    }

    /** Sends initialize and reads its answer; returns the session id (null for a stateless server). */
    String initialize(URI url) throws IOException, InterruptedException {
        HttpResponse<InputStream> r = http.send(post(url, null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"load\","
                + "\"version\":\"1\"}}}"), HttpResponse.BodyHandlers.ofInputStream());
        if (r.statusCode() != 200) {
            r.body().readAllBytes();
            r.body().close();
            throw new IOException("initialize: HTTP " + r.statusCode());
        }
        String session = r.headers().firstValue("Mcp-Session-Id").orElse(null);
        readAnswer(r, 1);
        return session;
    }

    /** A session as a client opens it: initialize, its answer, then notifications/initialized. */
    String open(URI url) throws IOException, InterruptedException {
        String session = initialize(url);
        HttpResponse<InputStream> n = http.send(post(url, session, "{\"jsonrpc\":\"2.0\",\"method\":"
                + "\"notifications/initialized\"}"), HttpResponse.BodyHandlers.ofInputStream());
        n.body().readAllBytes();
        n.body().close();
        return session;
    }

    void close(URI url, String session) {
        if (session == null) {
            return;
        }
        try {
            HttpRequest.Builder delete = HttpRequest.newBuilder(url).header("Mcp-Session-Id", session).DELETE();
            if (authorization.containsKey(url)) {
                delete.header("Authorization", authorization.get(url));
            }
            http.send(delete.build(), HttpResponse.BodyHandlers.discarding());
        } catch (IOException | InterruptedException e) {
            // best effort
        }
    }

    void send(URI url, String session, String body, long id) throws IOException, InterruptedException {
        HttpResponse<InputStream> r = http.send(post(url, session, body), HttpResponse.BodyHandlers.ofInputStream());
        if (r.statusCode() != 200) {
            r.body().readAllBytes();
            r.body().close();
            throw new IOException("HTTP " + r.statusCode());
        }
        readAnswer(r, id);
    }

    private HttpRequest post(URI url, String session, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(url).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-06-18");
        }
        if (authorization.containsKey(url)) {
            b.header("Authorization", authorization.get(url));
        }
        return b.build();
    }

    /** Reads until the answer to {@code id}: a JSON body, or the SSE event that carries it. */
    private static void readAnswer(HttpResponse<InputStream> r, long id) throws IOException {
        try (InputStream in = r.body()) {
            String type = r.headers().firstValue("Content-Type").orElse("");
            if (!type.startsWith("text/event-stream")) {
                in.readAllBytes();
                return;
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String marker = "\"id\":" + id;
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.startsWith("data:") && line.contains(marker)
                        && (line.contains("\"result\"") || line.contains("\"error\""))) {
                    // Read the stream to its end (the server closes it after the answer): a body
                    // left unread makes the client drop or mis-reuse the connection.
                    while (reader.readLine() != null) {
                        // drain
                    }
                    return;
                }
            }
            throw new IOException("the stream ended before the answer");
        }
    }
}
