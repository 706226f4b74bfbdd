package dev.warden.http.server.internal.request;

import dev.warden.core.mcp.ProtocolVersion;
import java.util.Locale;
import java.util.Optional;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;

/** The headers of Streamable HTTP: those the endpoint reads, and those it sets on an event stream. */
public final class Headers {

    public static final String SESSION = "Mcp-Session-Id";
    public static final String VERSION = "MCP-Protocol-Version";
    public static final String UNSUPPORTED_VERSION = "Bad request: unsupported MCP-Protocol-Version; supported: "
            + String.join(", ", ProtocolVersion.supportedWire());

    private Headers() {
    }

    public static Optional<String> header(Request request, String name) {
        return Optional.ofNullable(request.getHeaders().get(name));
    }

    /** Absent means 2025-03-26 (the spec's default); present, it must be a version this server speaks. */
    public static boolean versionValid(Request request) {
        return header(request, VERSION).map(v -> ProtocolVersion.fromWire(v.trim()).isPresent()).orElse(true);
    }

    public static boolean isJson(Optional<String> contentType) {
        return contentType.map(ct -> ct.toLowerCase(Locale.ROOT).split(";", 2)[0].trim())
                .filter(ct -> ct.equals("application/json")).isPresent();
    }

    /** Whether an Accept header lists the type (or a wildcard that covers it). */
    public static boolean accepts(Optional<String> accept, String type) {
        if (accept.isEmpty()) {
            return false;
        }
        String major = type.substring(0, type.indexOf('/'));
        for (String part : accept.get().split(",")) {
            String t = part.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
            if (t.equals(type) || t.equals("*/*") || t.equals(major + "/*")) {
                return true;
            }
        }
        return false;
    }

    public static void sse(Response response) {
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache, no-transform");
        response.getHeaders().put("X-Accel-Buffering", "no");
    }
}
