package dev.warden.auth.internal;

import com.nimbusds.jose.util.Resource;
import com.nimbusds.jose.util.ResourceRetriever;
import dev.warden.core.json.Json;
import dev.warden.core.oauth.BoundedHttp;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The resource server's few HTTP exchanges with an authorization server (metadata, JWKS,
 * introspection), over core's {@link BoundedHttp} with the resource server's limits (it answers
 * requests while it waits, so 5 s), and its failures as {@link IOException}s for the operator.
 */
public final class Http implements ResourceRetriever {

    static final Duration TIMEOUT = Duration.ofSeconds(5);
    static final int MAX_BODY = 1 << 20;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final BoundedHttp http;

    public Http(HttpClient client) {
        this.http = new BoundedHttp(client, TIMEOUT, MAX_BODY);
    }

    public static HttpClient defaultClient() {
        return BoundedHttp.client(TIMEOUT);
    }

    /** A response: its status and body (at most {@link #MAX_BODY} bytes). */
    record Answer(int status, byte[] body, String contentType) {
    }

    Answer send(HttpRequest.Builder request) throws IOException {
        URI uri = request.build().uri();
        try {
            BoundedHttp.Answer a = http.send(request);
            byte[] body = a.body().orElseThrow(
                    () -> new IOException("answer from " + uri + " exceeds " + MAX_BODY + " bytes"));
            return new Answer(a.status(), body, a.header("Content-Type").orElse(null));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while asking " + uri, e);
        }
    }

    /** GETs {@code uri} as JSON; an answer other than 200 with a JSON object is an {@link IOException}. */
    Map<String, Object> getJson(URI uri) throws IOException {
        return object(get(uri).body(), uri);
    }

    /** The metadata document at {@code uri}, for {@link dev.warden.core.oauth.MetadataDiscovery}. */
    Optional<JsonNode> metadata(URI uri) throws IOException {
        return Optional.of(Json.mapper().valueToTree(getJson(uri)));
    }

    private Answer get(URI uri) throws IOException {
        Answer a = send(HttpRequest.newBuilder(uri).header("Accept", "application/json").GET());
        if (a.status() != 200) {
            throw new IOException(uri + " answered " + a.status());
        }
        return a;
    }

    static Map<String, Object> object(byte[] body, URI from) throws IOException {
        try {
            Object v = JSON.readValue(body, Object.class);
            if (v instanceof Map<?, ?> m) {
                @SuppressWarnings("unchecked")
                Map<String, Object> map = (Map<String, Object>) m;
                return map;
            }
            throw new IOException(from + " answered JSON that is not an object");
        } catch (JacksonException e) {
            throw new IOException(from + " answered malformed JSON: " + e.getOriginalMessage());
        }
    }

    /** For nimbus's JWK set source: the JWK set document at {@code url}. */
    @Override
    public Resource retrieveResource(URL url) throws IOException {
        URI uri;
        try {
            uri = url.toURI();
        } catch (URISyntaxException e) {
            throw new IOException("not a URI: " + url, e);
        }
        Answer a = get(uri);
        return new Resource(new String(a.body(), StandardCharsets.UTF_8), a.contentType());
    }
}
