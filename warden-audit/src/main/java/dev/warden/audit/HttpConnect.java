package dev.warden.audit;

import dev.warden.audit.transport.Reachability;
import dev.warden.client.McpClient;
import dev.warden.client.http.LegacySseTransport;
import dev.warden.client.http.StreamableHttpTransport;
import dev.warden.core.error.AuthorizationFailedException;
import dev.warden.core.transport.Transport;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Connects an HTTP target the way the spec's backwards-compatibility rule says a client does:
 * Streamable HTTP first; when its POST answers 404 or 405, the older HTTP+SSE transport (a GET
 * whose first event names the endpoint to POST to) at the URL, then at its sibling {@code /sse}
 * when the URL ends in {@code /mcp}. A target neither answers fails with the likely cause in one
 * line ({@link Reachability}), never a bare exception name.
 */
final class HttpConnect {

    private HttpConnect() {
    }

    static McpClient connect(Line line, Target.Http target, Duration timeout) {
        RuntimeException failed;
        try {
            return line.open(streamable(target), TransportUsed.STREAMABLE_HTTP);
        } catch (AuthorizationFailedException e) {
            throw e;
        } catch (RuntimeException e) {
            failed = e;
        }
        line.charge(1);
        Reachability.Verdict verdict = Reachability.post(target.endpoint(), target.requestHeaders(), timeout, failed);
        if (verdict instanceof Reachability.Verdict.Cause cause) {
            throw new AuditException(notAudited(target, cause.line()), failed);
        }
        int status = ((Reachability.Verdict.NotStreamable) verdict).status();
        List<String> tried = new ArrayList<>();
        for (URI candidate : Reachability.legacyCandidates(target.endpoint())) {
            try {
                return line.open(() -> LegacySseTransport.open(candidate, target.headers(), target.authorization(),
                        timeout), TransportUsed.HTTP_SSE);
            } catch (AuthorizationFailedException e) {
                throw e;
            } catch (RuntimeException e) {
                tried.add(candidate.getRawPath() + " (" + reason(e) + ")");
            }
        }
        throw new AuditException(notAudited(target, "HTTP " + status + " to the Streamable HTTP POST, and no "
                + "HTTP+SSE stream at " + String.join(" or ", tried) + ": is the URL the server's MCP endpoint?"), failed);
    }

    private static Supplier<Transport> streamable(Target.Http h) {
        return h.authorization().<Supplier<Transport>>map(a -> () -> StreamableHttpTransport.of(h.endpoint(), h.headers(), a))
                .orElseGet(() -> McpClient.http(h.endpoint(), h.headers()));
    }

    private static String notAudited(Target target, String cause) {
        return "Could not audit " + target.describe() + ": " + cause;
    }

    /** The client's own words for why a legacy stream failed (its transport's message, never the server's text). */
    private static String reason(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof dev.warden.core.transport.TransportClosedException && t.getMessage() != null) {
                return t.getMessage();
            }
        }
        return e.getClass().getSimpleName(); // a peer's error message is the server's text
    }
}
