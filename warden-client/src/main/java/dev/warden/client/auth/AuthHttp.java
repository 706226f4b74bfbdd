package dev.warden.client.auth;

import dev.warden.core.json.Json;
import dev.warden.core.oauth.BoundedHttp;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import tools.jackson.databind.JsonNode;

/**
 * The authorization flow's HTTP calls, over core's {@link BoundedHttp} with the client's limits
 * (30 s: a person may be waiting on a slow server anyway), only to {@link Endpoints#secure} URLs,
 * and their failures as {@link AuthorizationStepException}s.
 */
final class AuthHttp {

    /** No metadata document or token response comes near this; a larger body is not read. */
    static final int MAX_BODY = 256 * 1024;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    record Reply(int status, Optional<JsonNode> json, Optional<String> location) {
    }

    private final BoundedHttp http;

    AuthHttp(HttpClient http) {
        this.http = new BoundedHttp(http, TIMEOUT, MAX_BODY);
    }

    static AuthHttp ofDefaults() {
        return new AuthHttp(BoundedHttp.client(Duration.ofSeconds(10)));
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
            BoundedHttp.Answer answer = http.send(request);
            return new Reply(answer.status(), answer.body().flatMap(AuthHttp::json), answer.header("Location"));
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
