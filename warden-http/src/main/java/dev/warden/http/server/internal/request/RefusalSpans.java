package dev.warden.http.server.internal.request;

import dev.warden.core.jsonrpc.Decoded;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.telemetry.Channel;
import dev.warden.telemetry.McpNames;
import dev.warden.telemetry.McpOperation;
import dev.warden.telemetry.McpTelemetry;
import dev.warden.telemetry.Outcome;
import io.opentelemetry.context.Context;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;

/**
 * The SERVER span of a POST the endpoint refuses before any session sees its message (401/403,
 * 406/413/415, 429, 503 while draining or full, an unknown session...): without it an operator
 * looking for why a client was refused finds nothing, as no session's telemetry ever ran. Named
 * by the message's method when the body was read and parsed as one request or notification, else
 * {@link #UNPARSED} (recorded as {@code _OTHER}, as any method outside MCP's); its parent is the context in the
 * message's {@code _meta}, else the POST's W3C headers. It ends with the answer as the client
 * received it (the JSON-RPC code, Warden's code, the ref, the message) and the HTTP status; never
 * the body or a header's value.
 */
public final class RefusalSpans {

    /** The method of a span whose message is unknown (not read, not JSON-RPC, a batch, a response). */
    static final String UNPARSED = "mcp";

    /** The request attribute holding the POST's decoded body, once read. */
    private static final String PARSED = RefusalSpans.class.getName() + ".parsed";

    private final McpTelemetry telemetry;

    public RefusalSpans(McpTelemetry telemetry) {
        this.telemetry = Objects.requireNonNull(telemetry, "telemetry");
    }

    /** The POST's body has been read and decoded: a refusal from here on names its method. */
    public static void parsed(Request request, Decoded decoded) {
        request.setAttribute(PARSED, decoded);
    }

    /** {@code answer} goes out with {@code status} for the request {@code response} answers: its span, if a POST. */
    void refused(Response response, int status, JsonRpcMessage.Failure answer) {
        if (telemetry == McpTelemetry.noop()) {
            return;
        }
        Request request = response.getRequest();
        if (!"POST".equals(request.getMethod())) {
            return;
        }
        Context carried = TraceHeaders.of(request).map(h -> telemetry.extractHeaders(h::header, Context.root()))
                .orElseGet(Context::root);
        McpOperation op = telemetry.startServer(message(request), Channel.http(), carried);
        op.attribute(McpNames.HTTP_RESPONSE_STATUS_CODE, (long) status);
        op.end(Outcome.sent(answer));
    }

    private static JsonRpcMessage message(Request request) {
        Optional<JsonRpcMessage> parsed = request.getAttribute(PARSED) instanceof Decoded.Message m
                && !(m.message() instanceof JsonRpcMessage.Response) ? Optional.of(m.message()) : Optional.empty();
        return parsed.orElseGet(() -> new JsonRpcMessage.Notification(UNPARSED, Optional.empty(), Map.of()));
    }
}
