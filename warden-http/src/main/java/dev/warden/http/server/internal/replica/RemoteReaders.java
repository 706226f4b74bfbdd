package dev.warden.http.server.internal.replica;

import dev.warden.core.cluster.ReplicaBus;
import dev.warden.core.json.Json;
import dev.warden.http.server.internal.session.HttpSessionTransport;
import dev.warden.http.server.internal.settings.EndpointSettings;
import dev.warden.http.server.internal.stream.QueuedWriter;
import dev.warden.http.server.internal.stream.SseStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.eclipse.jetty.util.Callback;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * This replica's streams, read by a client whose resumption the load balancer took to another
 * replica ({@link RemoteStreams} is that end): asked on {@link #ATTACH}, it answers on {@link #FLOW}
 * ({@code ok}, {@code no}, or {@code busy} past {@link #MAX} readers), then sends each event as one
 * numbered message, with the stream's bounds (a remote reader that falls behind is cut as a local
 * one is). Detached on {@link #DETACH} or when the reader's replica is seen down; the stream then
 * waits to be resumed. Only the session's key crosses; holding the stream in that key's copy is the
 * check. The protocol: docs/design/replicas-sessions.md ("Resuming a stream on another replica").
 */
public final class RemoteReaders {

    static final String ATTACH = "streams.attach";
    static final String FLOW = "streams.flow";
    static final String DETACH = "streams.detach";
    /** The most streams of this replica read from elsewhere at once. */
    static final int MAX = 256;

    private record Key(String replica, String attachment) {
    }

    private final ReplicaBus bus;
    private final Function<String, Optional<HttpSessionTransport>> copies;
    private final Map<Key, Reader> readers = new ConcurrentHashMap<>();

    /** @param copies this replica's copy of a portable session, by its key ({@link SessionFacts#key}) */
    public RemoteReaders(EndpointSettings settings, Function<String, Optional<HttpSessionTransport>> copies,
                  ScheduledExecutorService timers) {
        this.bus = settings.replicas();
        this.copies = copies;
        if (settings.seal().isPresent() && !bus.alone()) {
            bus.on(ATTACH, this::attach);
            bus.on(DETACH, (from, body) -> Optional.ofNullable(readers.get(new Key(from,
                    parse(body).path("a").asString("")))).ifPresent(Reader::left));
            // Off the timer's thread: a detach ends a writer, whose end is a message on the bus.
            timers.scheduleAtFixedRate(() -> Thread.ofVirtual().name("warden-remote-readers").start(this::watch),
                    1, 1, TimeUnit.SECONDS);
        }
    }

    int count() {
        return readers.size();
    }

    /** An ask to attach: answered at once (on the bus's thread, which it must not hold), events follow. */
    private void attach(String from, String body) {
        JsonNode ask = parse(body);
        String id = ask.path("a").asString("");
        if (!ReplicaBus.WORD.matcher(id).matches()) {
            return;
        }
        long after = ask.path("after").asLong(-1);
        Optional<SseStream> stream = copies.apply(ask.path("k").asString(""))
                .flatMap(t -> t.stream(ask.path("s").asString("")));
        Reader reader = new Reader(new Key(from, id));
        if (stream.isEmpty() || after < 0) {
            reader.send("no", null);
        } else if (readers.size() >= MAX) {
            reader.send("busy", null);
        } else {
            readers.put(reader.key, reader);
            reader.send("ok", null); // number 0, before any event the writer sends
            reader.attached(stream.get(), stream.get().attachRemote(reader,
                    Callback.from(() -> reader.finish("end"), failure -> reader.finish("cut")), after));
        }
    }

    /** Detaches the readers whose replica is down: nobody reads what they would be sent. */
    private void watch() {
        readers.values().stream().filter(r -> !bus.alive(r.key.replica())).forEach(Reader::left);
    }

    /** One remote reader: the writer's output, each write a numbered message to the reader's replica. */
    private final class Reader extends OutputStream {
        private final Key key;
        private final ReentrantLock lock = new ReentrantLock();
        private long next;
        private boolean over;
        private SseStream stream;
        private QueuedWriter writer;

        Reader(Key key) {
            this.key = key;
        }

        void attached(SseStream stream, QueuedWriter writer) {
            lock.lock();
            try {
                this.stream = stream;
                this.writer = writer; // null when the stream was cut meanwhile: then already finished
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            if (!send("ev", new String(bytes, offset, length, StandardCharsets.UTF_8))) {
                throw new IOException("the remote reader is gone, or the replicas' bus is unreachable");
            }
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        /** The writer is done: the stream ended ({@code end}) or the writer failed ({@code cut}). */
        void finish(String how) {
            readers.remove(key, this);
            send(how, null);
            lock.lock();
            try {
                over = true;
            } finally {
                lock.unlock();
            }
        }

        /** The reader left, or its replica is down: the stream waits to be resumed. */
        void left() {
            readers.remove(key, this);
            SseStream s;
            QueuedWriter w;
            lock.lock();
            try {
                over = true; // nothing more to it, not even the writer's end
                s = stream;
                w = writer;
            } finally {
                lock.unlock();
            }
            if (s != null && w != null) {
                s.readerLeft(w);
            }
        }

        /** Sends the next message; false when the reader is over or the bus could not take it. */
        boolean send(String type, String event) {
            lock.lock();
            try {
                if (over) {
                    return false;
                }
                ObjectNode message = Json.object();
                message.put("a", key.attachment());
                message.put("n", next++);
                message.put("t", type);
                if (event != null) {
                    message.put("e", event);
                }
                return bus.send(key.replica(), FLOW, Json.write(message));
            } finally {
                lock.unlock();
            }
        }
    }

    static JsonNode parse(String body) {
        try {
            return Json.mapper().readTree(body);
        } catch (RuntimeException e) {
            return Json.object();
        }
    }
}
