package dev.warden.client.http;

import dev.warden.core.transport.StdioTransport;
import dev.warden.core.transport.Transport;
import dev.warden.core.transport.TransportClosedException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The client side of the older HTTP+SSE transport (2024-11-05), for servers that do not speak
 * Streamable HTTP: a GET opens one event stream whose first event, {@code endpoint}, names the URL
 * to POST messages to; every message the server sends comes on that stream as a {@code message}
 * event. {@link #open} makes the GET and waits for the endpoint, so a URL that is no such stream
 * fails there, with the reason in the client's own words (never the server's text).
 */
public final class LegacySseTransport implements Transport {

    private final URI streamUrl;
    private final URI endpoint;
    private final HttpExchanges posts;
    private final InputStream body;
    private final SseEvents events;
    /** How long one POST may take to be answered: its answer comes on the stream, so not long. */
    private final Duration postTimeout;
    private final Inbound inbound = new Inbound();

    private LegacySseTransport(URI streamUrl, URI endpoint, HttpExchanges posts, InputStream body,
                               SseEvents events, Duration postTimeout) {
        this.streamUrl = streamUrl;
        this.endpoint = endpoint;
        this.posts = posts;
        this.body = body;
        this.events = events;
        this.postTimeout = postTimeout;
    }

    /**
     * GETs {@code streamUrl} and reads up to its {@code endpoint} event, at most {@code wait}.
     *
     * @throws TransportClosedException when the GET fails, is not an event stream, or its first event
     *                                  is not {@code endpoint} in time (the message says which)
     */
    public static LegacySseTransport open(URI streamUrl, Map<String, String> headers,
                                          Optional<HttpAuthorization> authorization, Duration wait) {
        Objects.requireNonNull(streamUrl, "streamUrl");
        HttpExchanges get = new HttpExchanges(streamUrl, headers, authorization);
        Opening opening = new Opening();
        CompletableFuture<LegacySseTransport> opened = new CompletableFuture<>();
        Thread handshake = Thread.ofVirtual().name("warden-sse-open").start(() -> {
            try {
                opened.complete(handshake(streamUrl, get, headers, authorization, wait, opening));
            } catch (Throwable e) {
                opened.completeExceptionally(e);
            }
        });
        try {
            return opened.get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // The GET must stop too: interrupting ends a send still waiting, closing ends a read.
            opening.abandon();
            handshake.interrupt();
            throw new TransportClosedException("no endpoint event on the HTTP+SSE stream within "
                    + wait.toMillis() + " ms", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof TransportClosedException t ? t
                    : new TransportClosedException("the HTTP+SSE stream failed", e.getCause());
        } catch (InterruptedException e) {
            opening.abandon();
            handshake.interrupt();
            Thread.currentThread().interrupt();
            throw new TransportClosedException("interrupted while opening the HTTP+SSE stream", e);
        }
    }

    /** The GET's body while the handshake reads it, so that giving up on the handshake closes it. */
    private static final class Opening {
        private InputStream body;
        private boolean abandoned;

        /** Keeps {@code in}; false (and {@code in} closed) when the handshake was already given up. */
        synchronized boolean hold(InputStream in) {
            body = in;
            if (abandoned) {
                close(in);
            }
            return !abandoned;
        }

        synchronized void abandon() {
            abandoned = true;
            if (body != null) {
                close(body);
            }
        }
    }

    private static LegacySseTransport handshake(URI streamUrl, HttpExchanges get, Map<String, String> headers,
                                                Optional<HttpAuthorization> authorization, Duration wait,
                                                Opening opening) {
        HttpResponse<InputStream> response = get.stream(Optional.empty());
        if (!opening.hold(response.body())) {
            throw new TransportClosedException("the HTTP+SSE stream was given up", null);
        }
        int status = response.statusCode();
        String type = response.headers().firstValue("Content-Type").orElse("");
        if (status != 200) {
            HttpExchanges.drain(response);
            throw new TransportClosedException("the HTTP+SSE GET answered HTTP " + status, null);
        }
        if (!type.startsWith("text/event-stream")) {
            close(response.body());
            throw new TransportClosedException("the HTTP+SSE GET answered " + (type.isEmpty() ? "no content type"
                    : type.split(";")[0].trim()) + ", not an event stream", null);
        }
        SseEvents events = new SseEvents(response.body(), StdioTransport.DEFAULT_MAX_MESSAGE_BYTES,
                new Inbound.StreamState());
        try {
            Optional<SseEvents.Item> first = events.next();
            if (first.orElse(null) instanceof SseEvents.Item.Oversized) {
                close(response.body());
                throw new TransportClosedException("the HTTP+SSE stream's first event is too large", null);
            }
            if (!(first.orElse(null) instanceof SseEvents.Item.Event event) || !"endpoint".equals(event.type())) {
                close(response.body());
                throw new TransportClosedException("the HTTP+SSE stream's first event is not endpoint", null);
            }
            URI endpoint = streamUrl.resolve(event.data().trim());
            if (!Objects.equals(endpoint.getScheme(), streamUrl.getScheme())
                    || !Objects.equals(endpoint.getAuthority(), streamUrl.getAuthority())) {
                // The spec's endpoint is on the same server; posting credentials elsewhere is not ours to do.
                close(response.body());
                throw new TransportClosedException("the HTTP+SSE endpoint event names another origin", null);
            }
            return new LegacySseTransport(streamUrl, endpoint, new HttpExchanges(endpoint, headers, authorization),
                    response.body(), events, wait);
        } catch (IOException | IllegalArgumentException e) {
            close(response.body());
            throw new TransportClosedException("the HTTP+SSE stream could not be read", e);
        }
    }

    /** The URL the event stream was opened at. */
    public URI streamUrl() {
        return streamUrl;
    }

    /** The URL messages are POSTed to, as the server's {@code endpoint} event named it. */
    public URI endpoint() {
        return endpoint;
    }

    @Override
    public void start(Listener listener) {
        inbound.start(Objects.requireNonNull(listener, "listener"));
        Thread.ofVirtual().name("warden-sse-read").start(this::read);
    }

    /** Hands each {@code message} event to the session until the stream ends, then closes. */
    private void read() {
        try {
            Optional<SseEvents.Item> next;
            while (!inbound.closed() && (next = events.next()).isPresent()) {
                switch (next.get()) {
                    // One event too large to keep: the request it answers fails now, as on Streamable HTTP.
                    case SseEvents.Item.Oversized o -> inbound.tooLarge(o.edges());
                    case SseEvents.Item.Event e -> {
                        if ("message".equals(e.type()) && !e.data().isBlank()) {
                            inbound.deliver(e.data().getBytes(StandardCharsets.UTF_8));
                        }
                    }
                }
            }
        } catch (IOException e) {
            // the stream broke: the server is gone for this client, as when it ends
        }
        close();
    }

    /** POSTs one message; the answer, if any, comes on the stream. */
    @Override
    public void send(String frame) {
        if (inbound.closed()) {
            throw new TransportClosedException("the HTTP+SSE transport is closed", null);
        }
        HttpResponse<InputStream> response = posts.send(() -> posts.request()
                .timeout(postTimeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(frame)));
        int status = response.statusCode();
        HttpExchanges.drain(response);
        if (status / 100 != 2) {
            throw new TransportClosedException("the server answered HTTP " + status + " to a message", null);
        }
    }

    @Override
    public void close() {
        if (!inbound.close()) {
            return;
        }
        close(body);
        inbound.listener().ifPresent(Listener::onClose);
    }

    private static void close(InputStream in) {
        try {
            in.close();
        } catch (IOException e) {
            // closing what the server may already have closed
        }
    }
}
