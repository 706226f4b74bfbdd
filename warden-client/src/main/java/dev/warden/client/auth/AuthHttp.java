package dev.warden.client.auth;

import dev.warden.core.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import tools.jackson.databind.JsonNode;

/**
 * The authorization flow's HTTP calls: bounded in time and size (the servers are untrusted),
 * never following redirects by themselves, and only to {@link Endpoints#secure} URLs.
 */
final class AuthHttp {

    /** No metadata document or token response comes near this; a larger body is not read. */
    static final int MAX_BODY = 256 * 1024;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    record Reply(int status, Optional<JsonNode> json, Optional<String> location) {
    }

    private final HttpClient http;

    AuthHttp(HttpClient http) {
        this.http = http;
    }

    static AuthHttp ofDefaults() {
        return new AuthHttp(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NEVER).build());
    }

    Reply get(URI uri, String accept) {
        return send(HttpRequest.newBuilder(uri).header("Accept", accept).GET());
    }

    Reply postForm(URI uri, Map<String, String> form, Optional<String> authorization) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(form(form)));
        authorization.ifPresent(a -> b.header("Authorization", a));
        return send(b);
    }

    Reply postJson(URI uri, JsonNode body) {
        return send(HttpRequest.newBuilder(uri).header("Content-Type", "application/json")
                .header("Accept", "application/json").POST(HttpRequest.BodyPublishers.ofString(Json.write(body))));
    }

    static String form(Map<String, String> fields) {
        StringJoiner body = new StringJoiner("&");
        fields.forEach((k, v) -> body.add(encode(k) + "=" + encode(v)));
        return body.toString();
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private Reply send(HttpRequest.Builder request) {
        URI uri = request.build().uri();
        if (!Endpoints.secure(uri)) {
            throw new AuthorizationStepException("refused to contact an authorization URL that is not HTTPS");
        }
        try {
            HttpResponse<InputStream> response = http.send(request.timeout(TIMEOUT).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            Optional<String> location = response.headers().firstValue("Location");
            try (InputStream body = response.body()) {
                byte[] bytes = body.readNBytes(MAX_BODY + 1);
                if (bytes.length > MAX_BODY) {
                    return new Reply(response.statusCode(), Optional.empty(), location);
                }
                return new Reply(response.statusCode(), json(bytes), location);
            }
        } catch (IOException e) {
            throw new AuthorizationStepException("an authorization server could not be reached", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AuthorizationStepException("interrupted while authorizing", e);
        }
    }

    private static Optional<JsonNode> json(byte[] bytes) {
        if (bytes.length == 0) {
            return Optional.empty();
        }
        try {
            JsonNode node = Json.mapper().readTree(bytes);
            return node != null && node.isObject() ? Optional.of(node) : Optional.empty();
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }
}
