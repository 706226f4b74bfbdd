package dev.warden.gateway;

import dev.warden.core.error.IncidentSink;
import dev.warden.core.sanitize.Sanitizer;
import dev.warden.core.transport.StdioTransport;
import dev.warden.core.transport.Transport;
import dev.warden.gateway.internal.ErrorPipeline;
import dev.warden.gateway.internal.ProxyConnection;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;

/**
 * Warden in front of an MCP server it did not write: each client connection gets the upstream
 * behind a {@link ProxyConnection}, and everything the upstream says on the way back goes through
 * the error pipeline (sanitized, coded, given a ref; the original kept in the incident store).
 *
 * <pre>{@code
 * Gateway gateway = Gateway.builder()
 *         .upstream(Upstream.stdio("everything", List.of("npx", "-y", "@modelcontextprotocol/server-everything")))
 *         .incidents(store)
 *         .build();
 * gateway.serveStdio();   // warden wrap
 * }</pre>
 */
public final class Gateway {

    private final Upstream upstream;
    private final IncidentSink incidents;
    private final Sanitizer sanitizer;
    private final int maxMessageBytes;

    private Gateway(Builder b) {
        this.upstream = b.upstream.orElseThrow(() -> new IllegalArgumentException("a gateway needs an upstream"));
        this.incidents = b.incidents;
        this.sanitizer = b.sanitizer;
        this.maxMessageBytes = b.maxMessageBytes;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Upstream upstream() {
        return upstream;
    }

    /** Serves one client on {@code downstream}; returns once started. */
    public ProxyConnection connect(Transport downstream) {
        ProxyConnection connection = new ProxyConnection(downstream, upstream,
                new ErrorPipeline(upstream.name(), sanitizer, upstream.policy(), upstream.redactSuccessfulResults(),
                        incidents, Clock.systemUTC()));
        connection.start();
        return connection;
    }

    /**
     * Serves the client on this process's stdin and stdout until it disconnects ({@code warden
     * wrap}); anything else that writes to {@code System.out} goes to stderr instead.
     */
    public void serveStdio() {
        FileInputStream in = new FileInputStream(FileDescriptor.in);
        FileOutputStream out = new FileOutputStream(FileDescriptor.out);
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8));
        ProxyConnection connection = connect(StdioTransport.of(in, out, maxMessageBytes));
        try {
            connection.closed().join();
        } finally {
            connection.close();
        }
    }

    public static final class Builder {
        private Optional<Upstream> upstream = Optional.empty();
        private IncidentSink incidents = IncidentSink.stderr();
        private Sanitizer sanitizer = Sanitizer.ofDefaults();
        private int maxMessageBytes = StdioTransport.DEFAULT_MAX_MESSAGE_BYTES;

        private Builder() {
        }

        public Builder upstream(Upstream upstream) {
            this.upstream = Optional.of(Objects.requireNonNull(upstream, "upstream"));
            return this;
        }

        /** Where the originals of sanitized failures go (the store `warden incidents` reads, say). */
        public Builder incidents(IncidentSink incidents) {
            this.incidents = Objects.requireNonNull(incidents, "incidents");
            return this;
        }

        public Builder sanitizer(Sanitizer sanitizer) {
            this.sanitizer = Objects.requireNonNull(sanitizer, "sanitizer");
            return this;
        }

        /** The largest message accepted from the client. */
        public Builder maxMessageBytes(int max) {
            if (max < 1024) {
                throw new IllegalArgumentException("maxMessageBytes must be at least 1024, got " + max);
            }
            this.maxMessageBytes = max;
            return this;
        }

        public Gateway build() {
            return new Gateway(this);
        }
    }
}
