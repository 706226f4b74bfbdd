package dev.warden.testkit.otlp;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One span as an OTLP exporter sent it, in the terms a test asserts on: ids in lowercase hex (as
 * W3C traceparent writes them), the kind's and the status code's proto names without their prefix
 * ({@code SERVER}, {@code ERROR}), attribute values as Java values (String, Long, Double, Boolean,
 * List of those), and the service.name of the resource it came with.
 */
public record ReceivedSpan(String serviceName, String traceId, String spanId, Optional<String> parentSpanId,
                           String name, String kind, Map<String, Object> attributes, List<Event> events,
                           String statusCode, String statusMessage) {

    public ReceivedSpan {
        Objects.requireNonNull(serviceName, "serviceName");
        Objects.requireNonNull(traceId, "traceId");
        Objects.requireNonNull(spanId, "spanId");
        Objects.requireNonNull(parentSpanId, "parentSpanId");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        attributes = Map.copyOf(attributes);
        events = List.copyOf(events);
        Objects.requireNonNull(statusCode, "statusCode");
        Objects.requireNonNull(statusMessage, "statusMessage");
    }

    /** A span event: its name and attributes. */
    public record Event(String name, Map<String, Object> attributes) {
        public Event {
            Objects.requireNonNull(name, "name");
            attributes = Map.copyOf(attributes);
        }
    }

    /** The attribute's value, when the span has it. */
    public Optional<Object> attribute(String key) {
        return Optional.ofNullable(attributes.get(key));
    }

    /** Whether this span's parent is {@code parent}. */
    public boolean isChildOf(ReceivedSpan parent) {
        return traceId.equals(parent.traceId) && parentSpanId.equals(Optional.of(parent.spanId));
    }

    /**
     * Every text this span carries: name, attribute keys and values, event names and attributes,
     * status message. What a leak test scans for a canary.
     */
    public String allText() {
        StringBuilder text = new StringBuilder(name).append('\n').append(statusMessage).append('\n');
        attributes.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        for (Event event : events) {
            text.append(event.name()).append('\n');
            event.attributes().forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        }
        return text.toString();
    }
}
