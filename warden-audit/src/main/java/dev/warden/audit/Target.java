package dev.warden.audit;

import dev.warden.client.http.HttpAuthorization;
import dev.warden.core.transport.Transport;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The server an audit probes: a command it launches and speaks stdio to, or a Streamable HTTP
 * endpoint with headers sent on every request, or a transport made in this JVM. {@link #describe()} is what a report shows: it never
 * holds a header's value (an API key is a header value).
 */
public sealed interface Target {

    /**
     * How the server was reached, in words that hold no credential: header values are never shown,
     * and a credential in a command line or URL (a database URL's password, the value after
     * {@code --token}, {@code API_KEY=…}) is shown as {@code [redacted]}.
     */
    String describe();

    static Target stdio(List<String> command) {
        return new Stdio(command);
    }

    static Target http(URI endpoint, Map<String, String> headers) {
        return new Http(endpoint, headers);
    }

    /**
     * A Streamable HTTP endpoint whose challenges {@code authorization} answers (usually
     * {@link dev.warden.client.auth.OAuth}), with {@code headers} on every request too.
     */
    static Target http(URI endpoint, Map<String, String> headers, HttpAuthorization authorization) {
        return new Http(endpoint, headers, Optional.of(Objects.requireNonNull(authorization, "authorization")));
    }

    /**
     * A server reached through a transport made here: one embedded in the same JVM (tests, or a
     * gateway auditing an upstream it holds). {@code description} is shown as it is: it must hold no
     * credential.
     */
    static Target of(String description, Supplier<Transport> connector) {
        return new Connected(description, connector);
    }

    /** A server launched as {@code command}, spoken to over its stdin and stdout. */
    record Stdio(List<String> command) implements Target {
        public Stdio {
            Objects.requireNonNull(command, "command");
            command = List.copyOf(command);
            if (command.isEmpty() || command.get(0).isBlank()) {
                throw new IllegalArgumentException("a stdio target needs a command, got " + command);
            }
        }

        @Override
        public String describe() {
            return "stdio: " + Redacted.command(command);
        }

        @Override
        public String toString() {
            return describe();
        }
    }

    /** A server reached through {@code connector}'s transports. */
    record Connected(String description, Supplier<Transport> connector) implements Target {
        public Connected {
            Objects.requireNonNull(description, "description");
            Objects.requireNonNull(connector, "connector");
            if (description.isBlank()) {
                throw new IllegalArgumentException("a connected target needs a description");
            }
        }

        @Override
        public String describe() {
            return description;
        }

        @Override
        public String toString() {
            return describe();
        }
    }

    /**
     * A Streamable HTTP endpoint. The headers go with every request; only their names are ever shown.
     * An authorization, when there is one, answers the server's 401 and 403 challenges and adds its
     * {@code Authorization} header. The endpoint's user-info part (a password in the URL) is refused:
     * put it in a header.
     */
    record Http(URI endpoint, Map<String, String> headers, Optional<HttpAuthorization> authorization)
            implements Target {
        public Http {
            Objects.requireNonNull(endpoint, "endpoint");
            Objects.requireNonNull(headers, "headers");
            Objects.requireNonNull(authorization, "authorization");
            if (!"http".equalsIgnoreCase(endpoint.getScheme()) && !"https".equalsIgnoreCase(endpoint.getScheme())) {
                throw new IllegalArgumentException("an HTTP target's endpoint is http(s), got scheme "
                        + endpoint.getScheme());
            }
            if (endpoint.getRawUserInfo() != null) {
                throw new IllegalArgumentException("an HTTP target's endpoint must not carry user info; "
                        + "send credentials in a header");
            }
            headers = Map.copyOf(headers);
        }

        public Http(URI endpoint, Map<String, String> headers) {
            this(endpoint, headers, Optional.empty());
        }

        /**
         * What a request of the audit's own (the HTTP checks, raw POSTs) sends now: the headers, and
         * the authorization's current {@code Authorization} value (it has one once the audit's client
         * is authorized) unless a header already sets one.
         */
        public Map<String, String> requestHeaders() {
            Map<String, String> out = new LinkedHashMap<>(headers);
            boolean given = headers.keySet().stream().anyMatch("Authorization"::equalsIgnoreCase);
            if (!given) {
                authorization.flatMap(HttpAuthorization::header).ifPresent(v -> out.put("Authorization", v));
            }
            return out;
        }

        @Override
        public String describe() {
            String names = headers.isEmpty() ? "" : " (headers: " + String.join(", ", new TreeMap<>(headers).keySet()) + ")";
            return "http: " + Redacted.text(endpoint.toString()) + names
                    + (authorization.isPresent() ? " (OAuth)" : "");
        }

        /** Header values stay out of logs and stack traces too. */
        @Override
        public String toString() {
            return describe();
        }
    }
}
