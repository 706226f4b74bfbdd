package dev.warden.adapter.mcpsdk.guard;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.FailureClassifier;
import dev.warden.core.error.NotFoundFailure;
import dev.warden.core.error.ToolFailure;
import dev.warden.core.error.ValidationFailure;
import dev.warden.core.error.Violation;
import dev.warden.core.failure.Classifier;
import dev.warden.core.jsonrpc.JsonRpcError;
import io.modelcontextprotocol.spec.McpError;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An {@link McpError} (thrown by the SDK or a handler) by its JSON-RPC code: the code is the
 * structure the server chose, evidence of what kind of failure it is; the message and {@code data}
 * are untrusted (often an exception's text) and go to the incident only, so the peer gets a fixed
 * text. What a code means is core's one table ({@link Classifier.Answer#ofJsonRpc}); an unknown
 * method or resource is not found. Any other code stays an internal error.
 */
public final class McpErrorClassifier implements FailureClassifier {

    public static final McpErrorClassifier INSTANCE = new McpErrorClassifier();

    private McpErrorClassifier() {
    }

    @Override
    public Optional<ToolFailure> classify(Throwable throwable) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        for (Throwable t = throwable; t != null && seen.put(t, Boolean.TRUE) == null; t = t.getCause()) {
            if (t instanceof McpError e && e.getJsonRpcError() != null && e.getJsonRpcError().code() != null) {
                return forCode(e.getJsonRpcError().code());
            }
        }
        return Optional.empty();
    }

    private static Optional<ToolFailure> forCode(int code) {
        if (code == JsonRpcError.METHOD_NOT_FOUND) {
            return Optional.of(new NotFoundFailure("Method not found"));
        }
        if (code == SdkRefusals.resourceNotFoundCode()) {
            return Optional.of(new NotFoundFailure("Resource not found"));
        }
        if (Classifier.withoutEvidence(Classifier.Answer.ofJsonRpc(code)) == ErrorCode.VALIDATION_ERROR) {
            return Optional.of(new ValidationFailure(List.of(new Violation("", "Invalid params"))));
        }
        return Optional.empty();
    }
}
