package dev.warden.audit.http;

import dev.warden.audit.AuditCheck;
import dev.warden.audit.AuditContext;
import dev.warden.audit.Evidence;
import dev.warden.audit.Finding;
import dev.warden.audit.Rule;
import dev.warden.audit.Target;
import dev.warden.audit.internal.RawPosts;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Checks of a Streamable HTTP endpoint ({@code warden audit --url}), each from a few requests of
 * its own: an {@code initialize} with a foreign {@code Origin} and one with a foreign {@code Host}
 * (DNS rebinding: either served is {@link Rule#HTTP_NO_ORIGIN_CHECK}); {@value #SESSIONS}
 * initializes whose session ids are compared ({@link Rule#HTTP_GUESSABLE_SESSION}); one without the
 * target's headers, whose {@code 401} must point to protected-resource metadata
 * ({@link Rule#HTTP_401_WITHOUT_METADATA}); and every answer's {@code Server} and
 * {@code X-Powered-By} headers ({@link Rule#HTTP_VERSION_BANNER}, with the value's fingerprint, never
 * the value). Sessions it opened are closed with {@code DELETE}.
 *
 * <p>java.net.http refuses to send a {@code Host} header unless the JVM started with
 * {@code -Djdk.httpclient.allowRestrictedHeaders=host} (read once, when the client classes load):
 * the {@code warden} launcher passes it; without it the Host probe is left out, and only the
 * Origin probe is made.
 */
public final class HttpChecks implements AuditCheck {

    /** The system property, and its value, that lets java.net.http send a {@code Host} header. */
    public static final String RESTRICTED_HEADERS_PROPERTY = "jdk.httpclient.allowRestrictedHeaders";
    public static final String FOREIGN_ORIGIN = "http://evil.example";
    public static final String FOREIGN_HOST = "evil.example";
    /** Initializes made to compare session ids. */
    public static final int SESSIONS = 5;

    private static final List<String> BANNERS = List.of("server", "x-powered-by", "x-aspnet-version",
            "x-aspnetmvc-version");

    private final HttpClient client;
    private final Duration timeout;

    private HttpChecks(HttpClient client, Duration timeout) {
        this.client = Objects.requireNonNull(client, "client");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
    }

    /** Checks whose every request waits at most {@code timeout} for its answer's headers. */
    public static HttpChecks of(HttpClient client, Duration timeout) {
        return new HttpChecks(client, timeout);
    }

    @Override
    public String name() {
        return "http";
    }

    /** None for a stdio target or a dry run. */
    @Override
    public List<Finding> check(AuditContext context) {
        if (!(context.target() instanceof Target.Http http) || context.dryRun()) {
            return List.of();
        }
        try {
            return probe(http.endpoint(), http.requestHeaders());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("the endpoint did not answer", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The requests and their findings; {@code headers} go with every request but the unauthenticated one. */
    public List<Finding> probe(URI endpoint, Map<String, String> headers) throws IOException, InterruptedException {
        List<Finding> out = new ArrayList<>();
        List<HttpResponse<InputStream>> answers = new ArrayList<>();
        List<String> opened = new ArrayList<>();

        HttpResponse<InputStream> origin = initialize(endpoint, headers, Map.of("Origin", FOREIGN_ORIGIN));
        answers.add(origin);
        foreign("Origin", "Origin: " + FOREIGN_ORIGIN, origin.statusCode()).ifPresent(out::add);
        if (hostHeaderAllowed()) {
            String host = FOREIGN_HOST + (endpoint.getPort() > 0 ? ":" + endpoint.getPort() : "");
            HttpResponse<InputStream> foreignHost = initialize(endpoint, headers, Map.of("Host", host));
            answers.add(foreignHost);
            foreign("Host", "Host: " + host, foreignHost.statusCode()).ifPresent(out::add);
        }
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < SESSIONS; i++) {
            HttpResponse<InputStream> r = initialize(endpoint, headers, Map.of());
            answers.add(r);
            r.headers().firstValue("Mcp-Session-Id").ifPresent(ids::add);
        }
        sessionIds(ids).ifPresent(out::add);
        HttpResponse<InputStream> anonymous = initialize(endpoint, Map.of(), Map.of());
        answers.add(anonymous);
        unauthorized(anonymous.statusCode(), anonymous.headers().allValues("WWW-Authenticate")).ifPresent(out::add);

        Map<String, String> banners = new java.util.TreeMap<>();
        for (HttpResponse<InputStream> r : answers) {
            r.headers().map().forEach((name, values) -> values.forEach(v -> banners.putIfAbsent(
                    name.toLowerCase(Locale.ROOT), v)));
            r.headers().firstValue("Mcp-Session-Id").ifPresent(opened::add);
        }
        out.addAll(banners(banners));
        for (String id : opened) {
            close(endpoint, headers, id);
        }
        return out;
    }

    /** Whether this JVM lets java.net.http send a {@code Host} header. */
    public static boolean hostHeaderAllowed() {
        String allowed = System.getProperty(RESTRICTED_HEADERS_PROPERTY, "");
        for (String h : allowed.split(",")) {
            if (h.trim().equalsIgnoreCase("host")) {
                return true;
            }
        }
        return false;
    }

    /** {@link Rule#HTTP_NO_ORIGIN_CHECK} when a request with a foreign {@code header} was served (2xx). */
    public static Optional<Finding> foreign(String header, String probe, int status) {
        if (status < 200 || status > 299) {
            return Optional.empty();
        }
        return Optional.of(new Finding(Rule.HTTP_NO_ORIGIN_CHECK, Optional.empty(), probe, "header:" + header,
                "An initialize with a foreign " + header + " was served (" + status + "): a web page the user "
                        + "visits can reach this server through DNS rebinding.", Optional.empty()));
    }

    /** {@link Rule#HTTP_GUESSABLE_SESSION} when the ids of sessions opened one after another are short or alike. */
    public static Optional<Finding> sessionIds(List<String> ids) {
        return SessionIds.weakness(ids).map(why -> new Finding(Rule.HTTP_GUESSABLE_SESSION, Optional.empty(),
                ids.size() + " initializes", "header:Mcp-Session-Id", why, Optional.empty()));
    }

    /** {@link Rule#HTTP_401_WITHOUT_METADATA} when a 401 names no {@code resource_metadata} (RFC 9728). */
    public static Optional<Finding> unauthorized(int status, List<String> wwwAuthenticate) {
        if (status != 401 || wwwAuthenticate.stream().anyMatch(v -> v.toLowerCase(Locale.ROOT)
                .contains("resource_metadata"))) {
            return Optional.empty();
        }
        return Optional.of(new Finding(Rule.HTTP_401_WITHOUT_METADATA, Optional.empty(),
                "initialize without credentials", "header:WWW-Authenticate",
                wwwAuthenticate.isEmpty() ? "A 401 came without WWW-Authenticate; a client cannot find where to "
                        + "authorize." : "The 401's WWW-Authenticate has no resource_metadata; a client cannot "
                        + "find where to authorize.", Optional.empty()));
    }

    /**
     * {@link Rule#HTTP_VERSION_BANNER} for each banner header whose value holds a digit (a version),
     * and for every {@code X-Powered-By} and {@code X-AspNet…} header, which exist only to name the
     * product (Express sends {@code X-Powered-By: Express} unless told not to); a {@code Server}
     * header without a version ({@code nginx}) is left alone. Evidence is the value's fingerprint.
     * Names are lower case.
     */
    public static List<Finding> banners(Map<String, String> headers) {
        List<Finding> out = new ArrayList<>();
        headers.forEach((name, value) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            boolean version = value.chars().anyMatch(Character::isDigit);
            if (BANNERS.contains(lower) && (version || !"server".equals(lower)) && !value.isBlank()) {
                out.add(new Finding(Rule.HTTP_VERSION_BANNER, Optional.empty(), "any request",
                        "header:" + canonical(name), "The " + canonical(name) + " header names "
                        + (version ? "a version." : "the product."), Optional.of(Evidence.of("version-banner", value))));
            }
        });
        return out;
    }

    private static String canonical(String name) {
        StringBuilder b = new StringBuilder(name.length());
        boolean upper = true;
        for (char c : name.toCharArray()) {
            b.append(upper ? Character.toUpperCase(c) : Character.toLowerCase(c));
            upper = c == '-';
        }
        return b.toString();
    }

    private HttpResponse<InputStream> initialize(URI endpoint, Map<String, String> headers,
            Map<String, String> extra) throws IOException, InterruptedException {
        HttpRequest.Builder b = RawPosts.post(endpoint, timeout, RawPosts.INITIALIZE);
        headers.forEach(b::header);
        extra.forEach(b::setHeader);
        HttpRequest request = b.build();
        HttpResponse<InputStream> r;
        try {
            r = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (HttpTimeoutException slow) {
            throw slow; // a server that does not answer in time is not asked twice
        } catch (IOException closedUnderIt) {
            // The server may close a kept-alive connection just as the next probe goes out on it (an
            // answer whose body a probe did not read): the JDK resends no POST, so once more, anew.
            r = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
        }
        r.body().close(); // only the status and headers matter; an SSE answer is not waited for
        return r;
    }

    private void close(URI endpoint, Map<String, String> headers, String session) {
        Map<String, String> named = new java.util.LinkedHashMap<>(headers);
        named.put("Mcp-Session-Id", session);
        RawPosts.delete(client, endpoint, timeout, named); // the findings stand whether or not it closes
    }
}
