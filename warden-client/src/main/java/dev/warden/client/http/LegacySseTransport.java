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
    private final BoundedLines lines;
    private final Inbound inbound = new Inbound();

    private LegacySseTransport(URI streamUrl, URI endpoint, HttpExchanges posts, InputStream body,
                               BoundedLines lines) {
        this.streamUrl = streamUrl;
        this.endpoint = endpoint;
        this.posts = posts;
        this.body = body;
        this.lines = lines;
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
        CompletableFuture<LegacySseTransport> opened = CompletableFuture.supplyAsync(
                () -> handshake(streamUrl, get, headers, authorization),
                task -> Thread.ofVirtual().name("warden-sse-open").start(task));
        try {
            return opened.get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            opened.cancel(true);
            throw new TransportClosedException("no endpoint event on the HTTP+SSE stream within "
                    + wait.toMillis() + " ms", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof TransportClosedException t ? t
                    : new TransportClosedException("the HTTP+SSE stream failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransportClosedException("interrupted while opening the HTTP+SSE stream", e);
        }
    }

    private static LegacySseTransport handshake(URI streamUrl, HttpExchanges get, Map<String, String> headers,
                                                Optional<HttpAuthorization> authorization) {
        HttpResponse<InputStream> response = get.stream(Optional.empty());
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
        BoundedLines lines = new BoundedLines(response.body(), StdioTransport.DEFAULT_MAX_MESSAGE_BYTES);
        try {
            Optional<Event> first = next(lines);
            if (first.isEmpty() || !"endpoint".equals(first.get().type())) {
                close(response.body());
                throw new TransportClosedException("the HTTP+SSE stream's first event is not endpoint", null);
            }
            URI endpoint = streamUrl.resolve(first.get().data().trim());
            if (!Objects.equals(endpoint.getScheme(), streamUrl.getScheme())
                    || !Objects.equals(endpoint.getAuthority(), streamUrl.getAuthority())) {
                // The spec's endpoint is on the same server; posting credentials elsewhere is not ours to do.
                close(response.body());
                throw new TransportClosedException("the HTTP+SSE endpoint event names another origin", null);
            }
            return new LegacySseTransport(streamUrl, endpoint, new HttpExchanges(endpoint, headers, authorization),
                    response.body(), lines);
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
            Optional<Event> event;
            while (!inbound.closed() && (event = next(lines)).isPresent()) {
                if ("message".equals(event.get().type()) && !event.get().data().isBlank()) {
                    inbound.deliver(event.get().data().getBytes(StandardCharsets.UTF_8));
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

    /** One server-sent event: its type ({@code message} unless named) and its data. */
    record Event(String type, String data) {
    }

    /** The next event with data, or empty at the end of the stream; comments and ids are skipped. */
    static Optional<Event> next(BoundedLines lines) throws IOException {
        String type = "message";
        StringBuilder data = null;
        BoundedLines.Line line;
        while ((line = lines.next()) != null) {
            if (line.oversized()) {
                data = null; // an event too large to keep is dropped: its request times out
                continue;
            }
            String text = line.text();
            if (text.isEmpty()) {
                if (data != null) {
                    return Optional.of(new Event(type, data.toString()));
                }
                type = "message";
            } else if (text.startsWith("event:")) {
                type = text.substring(6).trim();
            } else if (text.startsWith("data:")) {
                String value = text.substring(text.startsWith("data: ") ? 6 : 5);
                data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
            }
        }
        return Optional.empty();
    }
}
