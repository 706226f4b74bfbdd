package dev.warden.http.server.internal.request;

import dev.warden.core.transport.RequestHeaders;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.eclipse.jetty.server.Request;

/**
 * The W3C trace context of one POST ({@link RequestHeaders#TRACE_CONTEXT}), kept for the requests
 * it carried while they are in flight: the server's span of each continues the caller's trace
 * from it when the request's {@code _meta} names none. Only these headers are kept (a few dozen
 * bytes), only when one came, and none longer than {@link #TRACE_CONTEXT_MAX_LENGTH}.
 */
public record TraceHeaders(Map<String, String> values) implements RequestHeaders {

    public TraceHeaders {
        values = Map.copyOf(Objects.requireNonNull(values, "values"));
    }

    /** The POST's trace context, if it sent any. */
    public static Optional<TraceHeaders> of(Request request) {
        Map<String, String> kept = new LinkedHashMap<>();
        for (String name : TRACE_CONTEXT) {
            Headers.header(request, name).filter(v -> !v.isBlank() && v.length() <= TRACE_CONTEXT_MAX_LENGTH)
                    .ifPresent(v -> kept.put(name, v));
        }
        return kept.isEmpty() ? Optional.empty() : Optional.of(new TraceHeaders(kept));
    }

    @Override
    public Optional<String> header(String name) {
        return Optional.ofNullable(values.get(name.toLowerCase(Locale.ROOT)));
    }
}
