package dev.warden.client.http;

import dev.warden.core.transport.UnauthorizedException;
import dev.warden.core.transport.TransportClosedException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The HTTP requests of one transport to one endpoint: the headers every request carries (the
 * configured ones, the session id, the negotiated version) and the answers to the server's 401 and
 * 403 challenges through the authorization.
 */
final class HttpExchanges {

    /** Authorization attempts for one message: a 401, then a 403 step-up, then a last try. */
    static final int MAX_AUTHORIZATIONS = 2;

    private final URI endpoint;
    private final HttpClient http;
    private final Map<String, String> headers;
    private final Optional<HttpAuthorization> authorization;
    private volatile Optional<String> sessionId = Optional.empty();
    private volatile Optional<String> protocolVersion = Optional.empty();

    HttpExchanges(URI endpoint, Map<String, String> headers, Optional<HttpAuthorization> authorization) {
        this.endpoint = endpoint;
        this.headers = Map.copyOf(headers);
        this.authorization = authorization;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    }

    Optional<String> sessionId() {
        return sessionId;
    }

    void sessionId(String id) {
        sessionId = Optional.of(id);
    }

    void protocolVersion(String version) {
        protocolVersion = Optional.of(version);
    }

    /** A request to the endpoint with the headers every request carries. */
    HttpRequest.Builder request() {
        // No timeout here: an answer may take as long as its call; the session's timeouts govern that.
        HttpRequest.Builder b = HttpRequest.newBuilder(endpoint);
        headers.forEach(b::header);
        sessionId.ifPresent(id -> b.header("Mcp-Session-Id", id));
        protocolVersion.ifPresent(v -> b.header("MCP-Protocol-Version", v));
        return b;
    }

    /** An event stream request (GET), resumed after {@code lastEventId} when there is one. */
    HttpResponse<InputStream> stream(Optional<String> lastEventId) {
        return send(() -> {
            HttpRequest.Builder get = request().header("Accept", "text/event-stream").GET();
            lastEventId.ifPresent(id -> get.header("Last-Event-ID", id));
            return get;
        });
    }

    /**
     * Sends, answering a 401 or a 403 {@code insufficient_scope} through the authorization (new
     * credentials, then the same message again); a refusal that remains is {@link
     * UnauthorizedException}, so the waiting request fails as unauthorized, not as a lost connection.
     */
    HttpResponse<InputStream> send(Supplier<HttpRequest.Builder> request) {
        for (int attempt = 0; ; attempt++) {
            Optional<String> credentials = authorization.flatMap(HttpAuthorization::header);
            HttpRequest.Builder b = request.get();
            credentials.ifPresent(c -> b.setHeader("Authorization", c));
            HttpResponse<InputStream> response;
            try {
                response = http.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
            } catch (IOException e) {
                throw new TransportClosedException("the HTTP request failed", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TransportClosedException("interrupted while sending", e);
            }
            int status = response.statusCode();
            if (status != 401 && status != 403) {
                return response;
            }
            List<String> challenges = response.headers().allValues("WWW-Authenticate");
            drain(response);
            if (authorization.isEmpty()) {
                throw new UnauthorizedException(status == 401
                        ? "The server requires authorization (HTTP 401) and none is configured"
                        : "The server refused access (HTTP 403)", null);
            }
            if (attempt >= MAX_AUTHORIZATIONS) {
                throw new UnauthorizedException("The server still refuses after authorization (HTTP " + status + ")",
                        null);
            }
            authorization.get().refused(endpoint, credentials, status, challenges);
        }
    }

    /** Ends the session on the server, if there is one (DELETE, best effort, 5 s at most). */
    void endSession(System.Logger log) {
        sessionId.ifPresent(id -> {
            try {
                HttpRequest.Builder delete = request();
                authorization.flatMap(HttpAuthorization::header).ifPresent(c -> delete.setHeader("Authorization", c));
                http.send(delete.DELETE().timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.discarding());
            } catch (IOException | InterruptedException e) {
                log.log(System.Logger.Level.DEBUG, "ending the session failed");
            }
        });
    }

    /** The most of an unwanted body read before closing it: enough to keep a connection for reuse. */
    static final int DRAIN_LIMIT = 64 * 1024;

    /**
     * Reads an unwanted body through, at most {@link #DRAIN_LIMIT} bytes, then closes it: a body a
     * server makes endless (or 4 GB) costs the connection, not the client's memory or time.
     */
    static void drain(HttpResponse<InputStream> response) {
        try (InputStream body = response.body()) {
            byte[] buffer = new byte[8192];
            int total = 0;
            for (int n; total < DRAIN_LIMIT && (n = body.read(buffer)) >= 0; ) {
                total += n;
            }
        } catch (IOException e) {
            // nothing to keep
        }
    }
}
