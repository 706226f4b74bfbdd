package dev.warden.http.server.internal.request;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ErrorRenderer;
import dev.warden.core.error.FailureContext;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.incident.ErrorBoundary;
import dev.warden.core.jsonrpc.JsonRpcCodec;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import java.util.Optional;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The endpoint's refusals: a status and a JSON-RPC error body, recorded by the server's boundary
 * (so their refs resolve in its incident store) and rendered by the one renderer, like every
 * error; a refused POST gets its SERVER span ({@link RefusalSpans}). None repeats a header value
 * or any other input back. Each leaves its connection usable or says it closes ({@link UnreadBody}).
 */
public final class Refusals {

    private final ErrorBoundary boundary;
    private final RefusalSpans spans;

    public Refusals(ErrorBoundary boundary, RefusalSpans spans) {
        this.boundary = boundary;
        this.spans = spans;
    }

    /** A refusal at the HTTP level, without an id. */
    public void error(Response response, Callback callback, int status, int code, String message) {
        ErrorCode symbolic = switch (status) {
            case 403 -> ErrorCode.PERMISSION_DENIED;
            case 404 -> ErrorCode.NOT_FOUND;
            default -> ErrorCode.VALIDATION_ERROR;
        };
        refuse(response, callback, status, Optional.empty(), new ProtocolException(code, message, symbolic));
    }

    public void refuse(Response response, Callback callback, int status, Optional<RequestId> id, ProtocolException e) {
        refuse(response, callback, status, id, e, "");
    }

    /**
     * A refusal the client may retry after {@code seconds} (503 for a full or draining server, 429
     * for a session with too much in flight): the same answer with a {@code Retry-After} header.
     */
    public void retryLater(Response response, Callback callback, int status, int seconds, Optional<RequestId> id,
                    ProtocolException e) {
        response.getHeaders().put(HttpHeader.RETRY_AFTER, Integer.toString(seconds));
        refuse(response, callback, status, id, e);
    }

    /**
     * Every slot taken by a session that is not idle: a new or restored session must wait. The
     * request was valid (-32603, as for a draining server, not -32600): the server cannot take it now.
     */
    public static ProtocolException tooManySessions() {
        return new ProtocolException(JsonRpcError.INTERNAL_ERROR, "Service unavailable: too many sessions are open "
                + "and none is idle; retry later", ErrorCode.RATE_LIMITED);
    }

    /** Every remote reader this replica may serve is taken: a resumption from another replica must wait. */
    public static ProtocolException tooManyRemoteReaders() {
        return new ProtocolException(JsonRpcError.INTERNAL_ERROR, "Service unavailable: too many streams are resumed "
                + "across replicas; retry later", ErrorCode.RATE_LIMITED);
    }

    /** @param reason for the operator, in the incident only (the codec's reason for refusing, say) */
    public void refuse(Response response, Callback callback, int status, Optional<RequestId> id, ProtocolException e,
                String reason) {
        // A body not read yet is dropped, or the answer says Connection: close, before it is written.
        UnreadBody.thenAnswer(response, callback, () -> {
            JsonRpcMessage.Failure answer = new JsonRpcMessage.Failure(id,
                    ErrorRenderer.rpcError(e, boundary.refusal(e, FailureContext.of("(http)"), reason)));
            spans.refused(response, status, answer); // ended before the client can read the answer
            response.setStatus(status);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
            Content.Sink.write(response, true, JsonRpcCodec.encode(answer), callback);
        });
    }
}
