package dev.warden.http.server.internal.session;

import dev.warden.core.jsonrpc.JsonRpcCodec;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import java.util.Optional;

/**
 * The ids of the requests a portable session sends its client (elicitation, sampling, roots, ping)
 * name the replica that asked, so that the client's answer, POSTed to whichever replica the load
 * balancer picks, finds its way back: {@code w:{replica}:n{number}} or {@code w:{replica}:s{text}},
 * the letter keeping the original id's type. Replica ids are words without {@code ':'}
 * ({@link dev.warden.core.cluster.ReplicaBus#WORD}), so the replica is what lies between the first
 * two colons whatever the original holds. Clients echo ids untouched (JSON-RPC), and a string id is
 * as valid to them as a number.
 */
public final class ReplicaIds {

    private static final String PREFIX = "w:";

    /** Whom an answer's id names, and the id the session gave its request. */
    record Named(String replica, RequestId original) {
    }

    private ReplicaIds() {
    }

    /** The frame of {@code request} with its id naming replica {@code self}. */
    static String naming(JsonRpcMessage.Request request, String self) {
        String original = switch (request.id()) {
            case RequestId.Number n -> "n" + n.value();
            case RequestId.Text t -> "s" + t.value();
        };
        return JsonRpcCodec.encode(new JsonRpcMessage.Request(RequestId.of(PREFIX + self + ":" + original),
                request.method(), request.params(), request.extras()));
    }

    /** Whom {@code id} names; empty for an id this scheme did not write (delivered as it is). */
    static Optional<Named> named(RequestId id) {
        if (!(id instanceof RequestId.Text text) || !text.value().startsWith(PREFIX)) {
            return Optional.empty();
        }
        String value = text.value();
        int colon = value.indexOf(':', PREFIX.length());
        if (colon <= PREFIX.length() || colon + 1 >= value.length()) {
            return Optional.empty();
        }
        String replica = value.substring(PREFIX.length(), colon);
        String original = value.substring(colon + 2);
        return switch (value.charAt(colon + 1)) {
            case 's' -> Optional.of(new Named(replica, RequestId.of(original)));
            case 'n' -> {
                try {
                    yield Optional.of(new Named(replica, RequestId.of(Long.parseLong(original))));
                } catch (NumberFormatException e) {
                    yield Optional.empty();
                }
            }
            default -> Optional.empty();
        };
    }

    /** {@code response} with the id its request had in the session. */
    static JsonRpcMessage.Response original(JsonRpcMessage.Response response, RequestId original) {
        return switch (response) {
            case JsonRpcMessage.Success s -> new JsonRpcMessage.Success(original, s.result(), s.extras());
            case JsonRpcMessage.Failure f -> new JsonRpcMessage.Failure(Optional.of(original), f.error(), f.extras());
        };
    }

    /** The id of an answer, when it has one. */
    public static Optional<RequestId> idOf(JsonRpcMessage.Response response) {
        return switch (response) {
            case JsonRpcMessage.Success s -> Optional.of(s.id());
            case JsonRpcMessage.Failure f -> f.id();
        };
    }
}
