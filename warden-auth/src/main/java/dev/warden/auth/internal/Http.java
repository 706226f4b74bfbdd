package dev.warden.auth.internal;

import com.nimbusds.jose.util.Resource;
import com.nimbusds.jose.util.ResourceRetriever;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The resource server's few HTTP exchanges with an authorization server (metadata, JWKS,
 * introspection), over one {@link HttpClient}: each bounded in time and in size, since an
 * authorization server that hangs or answers gigabytes must not hold a request forever.
 */
public final class Http implements ResourceRetriever {

    static final Duration TIMEOUT = Duration.ofSeconds(5);
    static final int MAX_BODY = 1 << 20;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient client;

    public Http(HttpClient client) {
        this.client = client;
    }

    public static HttpClient defaultClient() {
        return HttpClient.newBuilder().connectTimeout(TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** A response: its status and body (at most {@link #MAX_BODY} bytes). */
    record Answer(int status, byte[] body, String contentType) {
    }

    Answer send(HttpRequest request) throws IOException {
        try {
            HttpResponse<InputStream> r = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = r.body()) {
                byte[] body = in.readNBytes(MAX_BODY + 1);
                if (body.length > MAX_BODY) {
                    throw new IOException("answer from " + request.uri() + " exceeds " + MAX_BODY + " bytes");
                }
                return new Answer(r.statusCode(), body, r.headers().firstValue("Content-Type").orElse(null));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while asking " + request.uri(), e);
        }
    }

    /** GETs {@code uri} as JSON; an answer other than 200 with a JSON object is an {@link IOException}. */
    Map<String, Object> getJson(URI uri) throws IOException {
        Answer a = send(HttpRequest.newBuilder(uri).timeout(TIMEOUT).header("Accept", "application/json").GET().build());
        if (a.status() != 200) {
            throw new IOException(uri + " answered " + a.status());
        }
        return object(a.body(), uri);
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

    /** For nimbus's JWKS source: the JWK set document at {@code url}. */
    @Override
    public Resource retrieveResource(URL url) throws IOException {
        URI uri;
        try {
            uri = url.toURI();
        } catch (URISyntaxException e) {
            throw new IOException("not a URI: " + url, e);
        }
        Answer a = send(HttpRequest.newBuilder(uri).timeout(TIMEOUT).header("Accept", "application/json").GET().build());
        if (a.status() != 200) {
            throw new IOException(uri + " answered " + a.status());
        }
        return new Resource(new String(a.body(), StandardCharsets.UTF_8), a.contentType());
    }
}
