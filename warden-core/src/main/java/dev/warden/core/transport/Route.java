package dev.warden.core.transport;

import dev.warden.core.jsonrpc.RequestId;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * Which incoming request an outgoing frame belongs to. Stdio ignores it; Streamable HTTP uses it
 * to write each frame on the response stream of the request it concerns (progress, log messages
 * and server-to-client requests made while a tool runs go to that tool call's stream).
 */
public sealed interface Route {

    /**
     * The answer to {@code request}: the last frame of its stream. {@code errorCode} is the
     * JSON-RPC code when the answer is an error, so a transport can choose its status (HTTP 404 for
     * an unknown method in 2026-07-28) without parsing the frame again.
     */
    record Reply(RequestId request, OptionalInt errorCode) implements Route {
        public Reply {
            Objects.requireNonNull(request, "request");
            Objects.requireNonNull(errorCode, "errorCode");
        }
    }

    /** Sent while {@code request} was being handled. */
    record During(RequestId request) implements Route {
        public During {
            Objects.requireNonNull(request, "request");
        }
    }

    /** Not tied to any request (a list change, an error without an id). */
    record Unrelated() implements Route {
    }

    Route UNRELATED = new Unrelated();

    static Route reply(RequestId request) {
        return new Reply(request, OptionalInt.empty());
    }

    static Route during(RequestId request) {
        return new During(request);
    }
}
