package dev.warden.core.transport;

import dev.warden.core.jsonrpc.RequestId;
import java.util.Objects;

/**
 * Which incoming request an outgoing frame belongs to. Stdio ignores it; Streamable HTTP uses it
 * to write each frame on the response stream of the request it concerns (progress, log messages
 * and server-to-client requests made while a tool runs go to that tool call's stream).
 */
public sealed interface Route {

    /** The answer to {@code request}: the last frame of its stream. */
    record Reply(RequestId request) implements Route {
        public Reply {
            Objects.requireNonNull(request, "request");
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
        return new Reply(request);
    }

    static Route during(RequestId request) {
        return new During(request);
    }
}
