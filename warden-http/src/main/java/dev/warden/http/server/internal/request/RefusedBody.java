package dev.warden.http.server.internal.request;

import dev.warden.core.jsonrpc.Decoded;
import dev.warden.core.jsonrpc.JsonRpcCodec;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import java.util.Optional;

/**
 * The id of the request a refused credential came with, so that its error answers it as every
 * answer does. Read before anyone is admitted: capped small, decoded by the codec that decodes
 * everything else, and only the id taken. A batch, a notification or a body that is not JSON gets
 * the null id.
 */
final class RefusedBody {

    /** A request worth answering by id is small; a larger (or undeclared) refused body is not read for it. */
    static final int MAX_BYTES = 4 * 1024;

    private RefusedBody() {
    }

    static Optional<RequestId> requestId(byte[] body) {
        return switch (JsonRpcCodec.decode(body)) {
            case Decoded.Message m when m.message() instanceof JsonRpcMessage.Request r -> Optional.of(r.id());
            case Decoded.Invalid invalid -> invalid.refusal().flatMap(Decoded.Refusal::id);
            default -> Optional.empty();
        };
    }
}
