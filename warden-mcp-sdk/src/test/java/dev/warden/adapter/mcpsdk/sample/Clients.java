package dev.warden.adapter.mcpsdk.sample;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.function.Function;

/**
 * How the side-by-side tests reach a server over Streamable HTTP: through the official Java SDK
 * client, in a session of its own per request, or as raw bytes for what a transport answers itself.
 * Shared by this module's test and warden-spring-ai's (through this test jar).
 */
public final class Clients {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private Clients() {
    }

    /** {@code request} made by the SDK's client, initialized at {@code base} + {@code endpoint}. */
    public static Observed sdk(URI base, String endpoint, Function<McpSyncClient, Object> request) {
        var transport = HttpClientStreamableHttpTransport.builder(base.toString()).endpoint(endpoint).build();
        try (McpSyncClient client = McpClient.sync(transport).build()) {
            client.initialize();
            return Observed.of(() -> request.apply(client));
        }
    }

    /** A request sent as bytes, in a session of its own (or with a session id the server never gave). */
    public static Observed raw(URI endpoint, boolean inSession, String body) {
        try {
            String session = "no-such-session";
            if (inSession) {
                HttpResponse<String> init = post(endpoint, null,
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                        + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                        + "\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
                session = init.headers().firstValue("mcp-session-id").orElseThrow();
                post(endpoint, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            }
            HttpResponse<String> response = post(endpoint, session, body);
            return new Observed("HTTP " + response.statusCode(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static HttpResponse<String> post(URI endpoint, String session, String body)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            request.header("mcp-session-id", session);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
