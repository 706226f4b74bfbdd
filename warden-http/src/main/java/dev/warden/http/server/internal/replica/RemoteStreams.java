package dev.warden.http.server.internal.replica;

import dev.warden.core.cluster.ReplicaBus;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.Decoded;
import dev.warden.core.jsonrpc.JsonRpcCodec;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.http.server.internal.request.Headers;
import dev.warden.http.server.internal.request.Refusals;
import dev.warden.http.server.internal.session.HttpSessionTransport;
import dev.warden.http.server.internal.session.ReplicaIds;
import dev.warden.http.server.internal.session.SessionFacts;
import dev.warden.http.server.internal.settings.EndpointSettings;
import dev.warden.http.server.internal.stream.QueuedWriter;
import dev.warden.http.server.internal.stream.StreamIds;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A resumption ({@code Last-Event-ID}) of a portable session's stream that another, live replica
 * serves, served here across the bus ({@link RemoteReaders} is the other end): the events it
 * forwards are written to this GET's response with their own ids, until the stream ends. A refusal
 * is as before ({@code no}: 400, {@code busy}: 503, silence within {@link #ANSWER_WITHIN}:
 * {@link LostStreams}); a missing message ends the response cleanly; that replica seen down or
 * silent for {@link #SILENT_TICKS} keep-alives answers the stream's open requests with
 * {@link LostStreams}' retryable error. Inactive ({@link #served} false) with one process or
 * sessions that are not portable. The protocol: docs/design/replicas-sessions.md ("Resuming").
 */
public final class RemoteStreams {

    /** How long the serving replica has to say whether it attaches a reader. */
    static final Duration ANSWER_WITHIN = Duration.ofSeconds(3);
    /** The most resumptions this replica serves from elsewhere at once. */
    static final int MAX = 256;
    /** Keep-alive periods without a word from the serving replica after which it counts as lost. */
    static final int SILENT_TICKS = 3;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final EndpointSettings settings;
    private final ReplicaBus bus;
    private final ScheduledExecutorService timers;
    private final Refusals refusals;
    private final LostStreams lostStreams;
    private final boolean active;
    private final Map<String, Remote> remotes = new ConcurrentHashMap<>();

    public RemoteStreams(EndpointSettings settings, ScheduledExecutorService timers, Refusals refusals,
                  LostStreams lostStreams) {
        this.settings = settings;
        this.bus = settings.replicas();
        this.timers = timers;
        this.refusals = refusals;
        this.lostStreams = lostStreams;
        this.active = settings.seal().isPresent() && !bus.alone();
        if (active) {
            bus.on(RemoteReaders.FLOW, this::flow);
            timers.scheduleAtFixedRate(() -> Thread.ofVirtual().name("warden-remote-streams").start(this::watch),
                    1, 1, TimeUnit.SECONDS);
        }
    }

    int count() {
        return remotes.size();
    }

    /**
     * Takes the resumption of {@code streamId} after event {@code after} if the stream is another
     * replica's and that replica is up; false, untouched, for any other.
     */
    public boolean served(String streamId, OptionalLong after, HttpSessionTransport transport, Response response,
                   Callback callback) {
        if (!active || after.isEmpty()) {
            return false;
        }
        Optional<StreamIds.Served> served = StreamIds.parse(streamId);
        if (served.isEmpty() || served.get().replica().equals(bus.self()) || !bus.alive(served.get().replica())) {
            return false; // ours (then unknown), or its replica is down: LostStreams answers
        }
        if (remotes.size() >= MAX) {
            refusals.retryLater(response, callback, 503, 1, Optional.empty(), Refusals.tooManyRemoteReaders());
            return true;
        }
        Remote remote = new Remote(HexFormat.of().formatHex(random()), streamId, served.get(), response, callback);
        remotes.put(remote.id, remote);
        ObjectNode ask = Json.object();
        ask.put("a", remote.id);
        ask.put("k", SessionFacts.key(transport.sessionId()));
        ask.put("s", streamId);
        ask.put("after", after.getAsLong());
        if (!bus.send(remote.replica, RemoteReaders.ATTACH, Json.write(ask))) {
            remotes.remove(remote.id);
            return false; // the bus is unreachable: as before
        }
        timers.schedule(() -> unanswered(remote), ANSWER_WITHIN.toMillis(), TimeUnit.MILLISECONDS);
        return true;
    }

    /** Called every keep-alive period: a serving replica silent for too long counts as lost. */
    public void tick() {
        List<Remote> silent = remotes.values().stream().filter(Remote::silentTooLong).toList();
        if (!silent.isEmpty()) { // their errors are recorded (a store's write): off the timer's thread
            Thread.ofVirtual().name("warden-remote-streams").start(() -> silent.forEach(this::lost));
        }
    }

    /** The server stops: each response served from elsewhere ends (its client resumes on a replica that serves). */
    public void closeAll() {
        remotes.values().stream().filter(r -> r.writer != null).toList().forEach(r -> over(r, true));
    }

    /** The resumptions whose serving replica is seen down: lost, or (not answered yet) left to LostStreams at once. */
    private void watch() {
        remotes.values().stream().filter(r -> !bus.alive(r.replica)).toList()
                .forEach(r -> {
                    if (r.writer == null) {
                        unanswered(r);
                    } else {
                        lost(r);
                    }
                });
    }

    /** A message of a reader's flow (on the bus's thread: nothing here blocks). */
    private void flow(String from, String body) {
        JsonNode message = RemoteReaders.parse(body);
        Remote remote = remotes.get(message.path("a").asString(""));
        long n = message.path("n").asLong(-1);
        String type = message.path("t").asString("");
        if (remote == null || !remote.replica.equals(from)) {
            if (Set.of("ok", "ev").contains(type)) {
                detach(from, message.path("a").asString("")); // over here (given up on, say): its reader stops there
            }
            return;
        }
        remote.silentTicks = 0;
        if (remote.writer == null) {
            opened(remote, n, type);
        } else if (n != remote.expected) {
            over(remote, true); // a message was lost: the client resumes again from what it has
        } else {
            remote.expected++;
            switch (type) {
                case "ev" -> forward(remote, message.path("e").asString(""));
                case "end", "cut" -> over(remote, false);
                default -> over(remote, true);
            }
        }
    }

    /** The answer to the ask (message 0): the response starts, or is refused as before. */
    private void opened(Remote remote, long n, String type) {
        if (!remote.settled.compareAndSet(false, true)) {
            return; // given up on meanwhile: LostStreams has its response
        }
        if (n == 0 && "ok".equals(type)) {
            Headers.sse(remote.response);
            remote.writer = new QueuedWriter(remote.response, remote.callback, settings.limits().session().streamBuffer(),
                    () -> clientLeft(remote));
            remote.writer.start("warden-remote-sse");
            return;
        }
        remotes.remove(remote.id);
        Thread.ofVirtual().name("warden-remote-refusal").start(() -> {
            if ("busy".equals(type)) {
                refusals.retryLater(remote.response, remote.callback, 503, 1, Optional.empty(),
                        Refusals.tooManyRemoteReaders());
            } else {
                refusals.error(remote.response, remote.callback, 400, JsonRpcError.INVALID_REQUEST,
                        LostStreams.NO_STREAM);
            }
        });
    }

    /** One event of the stream: to the client as it came; an answer it carries is no longer owed. */
    private void forward(Remote remote, String event) {
        answered(event).ifPresent(remote.unanswered::remove);
        if (remote.writer.offer(event.getBytes(StandardCharsets.UTF_8), false) == QueuedWriter.Offer.REFUSED
                && remotes.remove(remote.id, remote)) { // not ended meanwhile: the client fell behind
            remote.writer.fail(new IOException("the client fell behind: its stream was cut"));
            detach(remote);
        }
    }

    /** The serving replica did not answer the ask in time: as before, LostStreams decides. */
    private void unanswered(Remote remote) {
        if (remote.settled.compareAndSet(false, true)) {
            remotes.remove(remote.id, remote);
            Thread.ofVirtual().name("warden-remote-unanswered").start(() -> {
                if (!lostStreams.answered(remote.streamId, remote.response, remote.callback)) {
                    refusals.error(remote.response, remote.callback, 400, JsonRpcError.INVALID_REQUEST,
                            LostStreams.NO_STREAM);
                }
            });
        }
    }

    /** The serving replica is down or silent: the requests still owed get the retryable error, then the end. */
    private void lost(Remote remote) {
        if (!remotes.remove(remote.id, remote)) {
            return;
        }
        remote.writer.offer(lostStreams.lost(remote.replica, remote.unanswered).getBytes(StandardCharsets.UTF_8));
        remote.writer.close();
        detach(remote);
    }

    /** The response ends cleanly; {@code detach}: the reader over there is told to stop. */
    private void over(Remote remote, boolean detach) {
        if (!remotes.remove(remote.id, remote)) {
            return;
        }
        remote.writer.close();
        if (detach) {
            detach(remote);
        }
    }

    /** The client's connection broke: the stream over there waits to be resumed, as after any broken one. */
    private void clientLeft(Remote remote) {
        if (remotes.remove(remote.id, remote)) {
            detach(remote);
        }
    }

    private void detach(Remote remote) {
        detach(remote.replica, remote.id);
    }

    private void detach(String replica, String id) {
        ObjectNode message = Json.object();
        message.put("a", id);
        bus.send(replica, RemoteReaders.DETACH, Json.write(message)); // lost if down: it then ends there anyway
    }

    /** The id of the answer an event carries, if it carries one. */
    private static Optional<RequestId> answered(String event) {
        int data = event.indexOf("data: ");
        if (data < 0) {
            return Optional.empty();
        }
        int end = event.indexOf('\n', data);
        String frame = event.substring(data + "data: ".length(), end < 0 ? event.length() : end);
        return JsonRpcCodec.decode(frame) instanceof Decoded.Message m && m.message() instanceof JsonRpcMessage.Response r
                ? ReplicaIds.idOf(r) : Optional.empty();
    }

    private static byte[] random() {
        byte[] bytes = new byte[12];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    /** One resumption served from another replica. */
    private static final class Remote {
        final String id;
        final String replica;
        final String streamId;
        final Set<RequestId> unanswered = ConcurrentHashMap.newKeySet();
        final Response response;
        final Callback callback;
        /** Whether what answers the GET is decided: the reader's stream, a refusal, or LostStreams (once only). */
        final java.util.concurrent.atomic.AtomicBoolean settled = new java.util.concurrent.atomic.AtomicBoolean();
        /** Set on the bus's thread when the reader is attached; the flow's messages come on that thread only. */
        volatile QueuedWriter writer;
        long expected = 1;
        volatile int silentTicks;

        Remote(String id, String streamId, StreamIds.Served served, Response response, Callback callback) {
            this.id = id;
            this.replica = served.replica();
            this.streamId = streamId;
            this.unanswered.addAll(served.requests());
            this.response = response;
            this.callback = callback;
        }

        boolean silentTooLong() {
            return writer != null && ++silentTicks >= SILENT_TICKS;
        }
    }
}
