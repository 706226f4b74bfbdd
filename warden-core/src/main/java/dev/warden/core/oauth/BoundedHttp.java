package dev.warden.core.oauth;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The one way Warden talks to an authorization server (metadata, keys, introspection, tokens,
 * registration): every exchange bounded in time and in size, since the server is untrusted and
 * one that hangs or answers gigabytes must not hold a request forever; redirects never followed
 * by the client itself. The limits are the caller's.
 */
public final class BoundedHttp {

    /** An answer: its status, its body (empty when larger than the limit), its headers. */
    public record Answer(int status, Optional<byte[]> body, HttpHeaders headers) {
        public Answer {
            Objects.requireNonNull(body, "body");
            Objects.requireNonNull(headers, "headers");
        }

        public Optional<String> header(String name) {
            return headers.firstValue(name);
        }
    }

    private final HttpClient client;
    private final Duration timeout;
    private final int maxBody;

    public BoundedHttp(HttpClient client, Duration timeout, int maxBody) {
        this.client = Objects.requireNonNull(client, "client");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        if (maxBody < 0) {
            throw new IllegalArgumentException("maxBody must not be negative, got " + maxBody);
        }
        this.maxBody = maxBody;
    }

    /** A client that connects within {@code connectTimeout} and never follows a redirect. */
    public static HttpClient client(Duration connectTimeout) {
        return HttpClient.newBuilder().connectTimeout(connectTimeout).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    public int maxBody() {
        return maxBody;
    }

    /** Sends {@code request} with this helper's timeout and reads at most {@link #maxBody} bytes of the answer. */
    public Answer send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpResponse<InputStream> r = client.send(request.timeout(timeout).build(), HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream in = r.body()) {
            byte[] body = in.readNBytes(maxBody + 1);
            return new Answer(r.statusCode(), body.length > maxBody ? Optional.empty() : Optional.of(body), r.headers());
        }
    }
}
