package dev.warden.audit.transport;

import dev.warden.audit.internal.RawPosts;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

/**
 * Why an HTTP target did not initialize, found with one plain POST of an {@code initialize} made
 * after the client's attempt failed (so an audit that connects pays nothing for it): a 404 or 405
 * means the older HTTP+SSE transport may answer instead (the spec's backwards-compatibility rule);
 * anything else is the likely cause, in one line of the auditor's own words (never the server's
 * text, never a header value).
 */
public final class Reachability {

    /** What the POST showed. */
    public sealed interface Verdict {
        /** No Streamable HTTP endpoint for a POST there ({@code status} 404 or 405): try HTTP+SSE. */
        record NotStreamable(int status) implements Verdict {
        }

        /** Why the audit cannot go on, in one line. */
        record Cause(String line) implements Verdict {
        }
    }

    private Reachability() {
    }

    /**
     * POSTs an {@code initialize} to {@code endpoint} with {@code headers} (the target's credentials
     * among them: a header given, or the --oauth token held), bounded by {@code timeout}; {@code
     * failure} is what the client's own attempt failed with (named when the POST succeeds). A session
     * the POST opened is ended (DELETE) before returning.
     */
    public static Verdict post(URI endpoint, Map<String, String> headers, Duration timeout, Throwable failure) {
        try (HttpClient http = HttpClient.newBuilder().connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER).build()) {
            HttpRequest.Builder b = HttpRequest.newBuilder(endpoint).timeout(timeout)
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(RawPosts.INITIALIZE));
            headers.forEach(b::header);
            HttpResponse<InputStream> response;
            try {
                response = http.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
            } catch (IOException e) {
                return new Verdict.Cause(cause(e, endpoint, timeout));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Verdict.Cause("interrupted while reaching the server");
            }
            try (InputStream body = response.body()) {
                // only the status and the type matter; the body is the server's text
            } catch (IOException e) {
                // nothing to keep
            }
            response.headers().firstValue("Mcp-Session-Id")
                    .ifPresent(session -> endSession(http, endpoint, headers, session, timeout));
            int status = response.statusCode();
            if (status == 404 || status == 405) {
                return new Verdict.NotStreamable(status);
            }
            String type = response.headers().firstValue("Content-Type").orElse("").toLowerCase(Locale.ROOT);
            boolean credentialed = headers.keySet().stream().anyMatch("Authorization"::equalsIgnoreCase);
            return new Verdict.Cause(status(status, type, credentialed, failure));
        }
    }

    /** Ends the session the initialize opened, best effort: the audit leaves nothing open on the server. */
    private static void endSession(HttpClient http, URI endpoint, Map<String, String> headers, String session,
                                   Duration timeout) {
        HttpRequest.Builder delete = HttpRequest.newBuilder(endpoint).timeout(timeout).DELETE();
        headers.forEach(delete::header);
        try {
            delete.header("Mcp-Session-Id", session);
            http.send(delete.build(), HttpResponse.BodyHandlers.discarding());
        } catch (IOException | IllegalArgumentException e) {
            // a server that does not end sessions, or an id no header can carry: nothing more to do
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static String status(int status, String type, boolean credentialed, Throwable failure) {
        if (status == 401 && credentialed) {
            return "HTTP 401: the server refuses the credentials given (the --oauth token or the Authorization "
                    + "header): check them, and that they are meant for this server";
        }
        if (status == 401) {
            return "HTTP 401: the server wants credentials; give them with --header 'Authorization: Bearer TOKEN', "
                    + "--header 'X-API-Key: KEY' or --oauth";
        }
        if (status == 403) {
            return "HTTP 403: the server refuses the credentials given (check the --header values, or the token's scope)";
        }
        if (type.startsWith("text/html")) {
            return "an HTML page (HTTP " + status + "), not an MCP endpoint: give the server's MCP URL (often ending in /mcp)";
        }
        if (status >= 300 && status < 400) {
            return "HTTP " + status + ": a redirect, which the audit does not follow: give the URL it points to";
        }
        if (status >= 500) {
            return "HTTP " + status + ": the server failed on initialize";
        }
        if (status >= 400) {
            return "HTTP " + status + " to an initialize POST: not an MCP endpoint, or one that refuses this client";
        }
        return "the server answered an initialize POST (HTTP " + status + (type.isEmpty() ? "" : ", " + type.split(";")[0])
                + ") but the MCP handshake failed (" + failure.getClass().getSimpleName() + ")";
    }

    /** A connection that failed before any status, in one line. */
    static String cause(Throwable e, URI endpoint, Duration timeout) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof UnresolvedAddressException || t instanceof UnknownHostException) {
                return "the host name " + endpoint.getHost() + " does not resolve";
            }
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SSLHandshakeException) {
                return "the TLS handshake failed (a certificate this JVM does not trust, or a name it does not match)";
            }
            if (t instanceof SSLException) {
                return "TLS failed: is the server on http:// rather than https://?";
            }
        }
        if (e instanceof HttpTimeoutException) {
            return "no answer within " + timeout.toMillis() + " ms (the server or a proxy hangs; --timeout gives more time)";
        }
        if (e instanceof ConnectException) {
            return "connection refused at " + endpoint.getHost() + ":" + port(endpoint)
                    + " (is the server running, on this port?)";
        }
        return "the connection failed (" + e.getClass().getSimpleName() + ")";
    }

    private static int port(URI endpoint) {
        return endpoint.getPort() >= 0 ? endpoint.getPort() : "https".equalsIgnoreCase(endpoint.getScheme()) ? 443 : 80;
    }

    /**
     * Where an HTTP+SSE stream may be: the URL itself, then, when its path ends in {@code /mcp}, the
     * conventional sibling {@code /sse} (servers that offer both put them side by side).
     */
    public static List<URI> legacyCandidates(URI url) {
        List<URI> out = new ArrayList<>(List.of(url));
        String path = url.getRawPath() == null ? "" : url.getRawPath();
        if (path.endsWith("/mcp")) {
            out.add(url.resolve(path.substring(0, path.length() - "/mcp".length()) + "/sse"));
        }
        return List.copyOf(out);
    }
}
