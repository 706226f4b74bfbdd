package dev.warden.http.server;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/** A raw Streamable HTTP client for the tests: sends exactly the bytes and headers a test chooses. */
final class HttpPeer implements AutoCloseable {

    static final String INIT = """
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",\
            "capabilities":{},"clientInfo":{"name":"test","version":"1"}}}""";
    static final String INITIALIZED = """
            {"jsonrpc":"2.0","method":"notifications/initialized"}""";

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI endpoint;

    HttpPeer(URI endpoint) {
        this.endpoint = endpoint;
        OPEN.add(client);
    }

    /** Every peer's client not closed yet: {@link #closeAll()} closes them after each test. */
    private static final java.util.Set<HttpClient> OPEN = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * Closes the client's connections. Before the server closes: a server stopping gracefully waits
     * for open connections to close, idle ones too, which cost each test about a second.
     */
    @Override
    public void close() {
        OPEN.remove(client);
        client.shutdownNow(); // not close(): that would wait for a stream a test left open
    }

    /** Closes the clients of every peer a test made, before it closes its servers (see {@link #close()}). */
    static void closeAll() {
        OPEN.forEach(HttpClient::shutdownNow);
        OPEN.clear();
    }

    URI endpoint() {
        return endpoint;
    }

    HttpRequest.Builder post(String body, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(20))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(b::header);
        return b;
    }

    static Map<String, String> jsonHeaders() {
        return Map.of("Content-Type", "application/json", "Accept", "application/json, text/event-stream");
    }

    static Map<String, String> sessionHeaders(String session) {
        return Map.of("Content-Type", "application/json", "Accept", "application/json, text/event-stream",
                "Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-11-25");
    }

    HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<Stream<String>> stream(HttpRequest.Builder request) throws IOException, InterruptedException {
        return client.send(request.build(), HttpResponse.BodyHandlers.ofLines());
    }

    /** Initializes a session; returns its id. */
    String initialize() throws IOException, InterruptedException {
        HttpResponse<String> response = send(post(INIT, jsonHeaders()));
        String session = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
        send(post(INITIALIZED, sessionHeaders(session)));
        return session;
    }

    /** One parsed server-sent event. */
    record Event(Optional<String> id, String data) {
    }

    /** The events of a finished SSE body. */
    static List<Event> events(String body) {
        return events(body.lines().iterator(), Integer.MAX_VALUE);
    }

    /** Reads events until {@code max} have arrived or the stream ends. */
    static List<Event> events(Iterator<String> lines, int max) {
        List<Event> events = new ArrayList<>();
        Optional<String> id = Optional.empty();
        StringBuilder data = null;
        while (events.size() < max && lines.hasNext()) {
            String line = lines.next();
            if (line.isEmpty()) {
                if (data != null) {
                    events.add(new Event(id, data.toString()));
                }
                id = Optional.empty();
                data = null;
            } else if (line.startsWith("id:")) {
                id = Optional.of(line.substring(3).trim());
            } else if (line.startsWith("data:")) {
                data = (data == null ? new StringBuilder() : data.append('\n')).append(line.substring(5).trim());
            }
        }
        return events;
    }

    /** A server with one resource, {@code uri}, that clients can subscribe to. */
    static dev.warden.server.McpServer watchedServer(String uri) {
        return dev.warden.server.McpServer.builder("w", "1").incidents(dev.warden.core.incident.IncidentSink.all())
                .resourceSubscriptions(true)
                .resource(new dev.warden.core.mcp.Resources.Resource(uri, "watched", java.util.Optional.empty(),
                        java.util.Optional.empty(), java.util.Optional.empty(), java.util.OptionalLong.empty()),
                        (u, vars) -> List.of())
                .build();
    }
}
