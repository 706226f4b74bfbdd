package dev.warden.http.server.internal.stream;

import dev.warden.core.cluster.ReplicaBus;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.RequestId;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

/**
 * A session's stream ids (what a client's {@code Last-Event-ID} names again). In one process, and
 * for a session that is not portable: {@code <prefix>-<n>} (POST streams), {@code <prefix>-g<n>}
 * (GET streams). For a portable session among replicas the id also says which replica serves the
 * stream and which requests it carries: {@code <replica>.<tag>-<n>.<base64url(JSON array of the
 * request ids)>}, so that another replica a resumption reaches knows whose stream it was and, when
 * that replica is gone, which requests will never be answered ({@link LostStreams}). The ids are
 * the client's own, so the client learns nothing it did not send; most streams carry one short id
 * ({@code [7]} is {@code Wzdd}). A POST whose ids would make the stream id longer than
 * {@link #MAX_CARRIED} carries none.
 *
 * <p>The prefix tells the two forms apart: a replica's prefix has a '.', the others are base64url
 * (no '.'). The tag is random per copy of the session, so a copy restored later on the same
 * replica does not answer for an earlier copy's streams.
 */
public final class StreamIds {

    /** The most the request-id part may take, in characters. */
    static final int MAX_CARRIED = 512;

    private StreamIds() {
    }

    /** The prefix of a portable session's copy on this replica: the replica and {@code tag}, or the tag alone with no replicas. */
    public static String portablePrefix(ReplicaBus replicas, String tag) {
        return replicas.alone() ? tag : replicas.self() + "." + tag;
    }

    /** The id of the {@code n}th stream, for a POST carrying {@code requests}. */
    public static String stream(String prefix, long n, List<RequestId> requests) {
        String local = prefix + "-" + n;
        if (prefix.indexOf('.') < 0) {
            return local;
        }
        ArrayNode ids = Json.mapper().createArrayNode();
        requests.forEach(id -> ids.add(id.toJson()));
        String carried = Base64.getUrlEncoder().withoutPadding()
                .encodeToString(Json.write(ids).getBytes(StandardCharsets.UTF_8));
        return local + "." + (carried.length() <= MAX_CARRIED ? carried : "");
    }

    /** The id of the {@code n}th stream, a GET's (it carries no request). */
    public static String standalone(String prefix, long n) {
        return prefix + "-g" + n + (prefix.indexOf('.') < 0 ? "" : ".");
    }

    /**
     * A stream whose last event went out on a live connection: whether it is forgotten at once
     * (true, freeing what it kept), as in one process. Among replicas it is kept for the resume
     * window like any ended stream, events and all (within the stream's and the session's bounds):
     * a live connection there may be a reader on another replica, whose last messages can still be
     * lost on the bus, and a client that resumes the stream anyway (the TypeScript SDK does after a
     * cancelled call ended without an answer) then gets what it lacks and the end, on any replica,
     * rather than a 400.
     */
    public static boolean forgetDelivered(String prefix, SseStream stream) {
        if (prefix.indexOf('.') >= 0) {
            return false;
        }
        stream.forget();
        return true;
    }

    /** Whose a stream is, and the requests it carries, as its id says. */
    public record Served(String replica, List<RequestId> requests) {
    }

    /** What a replica's stream id says; empty for any other id (one process's, a malformed one). */
    public static Optional<Served> parse(String streamId) {
        int last = streamId.lastIndexOf('.');
        int first = last < 0 ? -1 : streamId.lastIndexOf('.', last - 1);
        if (first <= 0) {
            return Optional.empty();
        }
        String replica = streamId.substring(0, first);
        if (!ReplicaBus.WORD.matcher(replica).matches()) {
            return Optional.empty();
        }
        String carried = streamId.substring(last + 1);
        List<RequestId> requests = new ArrayList<>();
        if (!carried.isEmpty()) {
            try {
                JsonNode ids = Json.mapper().readTree(new String(Base64.getUrlDecoder().decode(carried),
                        StandardCharsets.UTF_8));
                if (!ids.isArray()) {
                    return Optional.empty();
                }
                for (JsonNode id : ids) {
                    Optional<RequestId> parsed = RequestId.fromJson(id);
                    if (parsed.isEmpty()) {
                        return Optional.empty();
                    }
                    requests.add(parsed.get());
                }
            } catch (RuntimeException e) {
                return Optional.empty(); // not one of ours
            }
        }
        return Optional.of(new Served(replica, List.copyOf(requests)));
    }
}
