package dev.warden.gateway.internal.metrics;

import dev.warden.core.sanitize.detection.Category;
import dev.warden.gateway.auditlog.AuditRecord;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.function.ToDoubleFunction;

/**
 * The gateway's meters: requests by upstream, method, tool and outcome (with the failure code),
 * latency histograms, breaker states and sanitizer findings by category. Labels are names from
 * the configuration and the upstreams' tool lists, never values from requests.
 */
public final class GatewayMetrics {

    private final MeterRegistry registry;

    public GatewayMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    public static GatewayMetrics none() {
        return new GatewayMetrics(new SimpleMeterRegistry());
    }

    /** Methods that may be labels; any other name a client sends is "(other)", so clients cannot grow the label set. */
    private static final java.util.Set<String> METHODS = java.util.Set.of("initialize", "ping", "tools/list",
            "tools/call", "prompts/list", "prompts/get", "resources/list", "resources/templates/list", "resources/read",
            "resources/subscribe", "resources/unsubscribe", "logging/setLevel", "completion/complete");

    /**
     * The labels of one request counter and of one latency timer (equals and hashCode written out:
     * a record's generated ones are linked at their first call, which costs milliseconds then).
     */
    private record CounterKey(String upstream, String method, String tool, AuditRecord.Outcome outcome, String code) {
        @Override
        public boolean equals(Object o) {
            return o instanceof CounterKey k && upstream.equals(k.upstream) && method.equals(k.method)
                    && tool.equals(k.tool) && outcome == k.outcome && code.equals(k.code);
        }

        @Override
        public int hashCode() {
            return (((upstream.hashCode() * 31 + method.hashCode()) * 31 + tool.hashCode()) * 31
                    + outcome.hashCode()) * 31 + code.hashCode();
        }
    }

    private record TimerKey(String upstream, String method, String tool) {
        @Override
        public boolean equals(Object o) {
            return o instanceof TimerKey k && upstream.equals(k.upstream) && method.equals(k.method)
                    && tool.equals(k.tool);
        }

        @Override
        public int hashCode() {
            return (upstream.hashCode() * 31 + method.hashCode()) * 31 + tool.hashCode();
        }
    }

    // Meters are looked up here by their labels first: building and registering one per request
    // (the registry's own lookup sorts and compares the tags each time) cost more than the rest.
    private final java.util.concurrent.ConcurrentHashMap<CounterKey, Counter> counters =
            new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.ConcurrentHashMap<TimerKey, Timer> timers =
            new java.util.concurrent.ConcurrentHashMap<>();

    public void request(AuditRecord r) {
        String upstream = r.upstream().orElse("-");
        String tool = r.tool().orElse("-");
        String method = METHODS.contains(r.method()) ? r.method() : "(other)";
        counters.computeIfAbsent(new CounterKey(upstream, method, tool, r.outcome(), r.code().orElse("-")),
                k -> Counter.builder("warden_gateway_requests").description("Requests through the gateway")
                        .tags("upstream", k.upstream(), "method", k.method(), "tool", k.tool(),
                                "outcome", k.outcome().name(), "code", k.code())
                        .register(registry)).increment();
        timers.computeIfAbsent(new TimerKey(upstream, method, tool),
                k -> Timer.builder("warden_gateway_request_duration").description("Time to answer a request")
                        .tags("upstream", k.upstream(), "method", k.method(), "tool", k.tool())
                        .publishPercentileHistogram()
                        .register(registry)).record(r.duration());
    }

    /**
     * A store that could not write: {@code audit} for each record lost, {@code incidents} for each
     * request begun while the incident store was not recording.
     */
    public void storeFailure(String store) {
        Counter.builder("warden_gateway_store_failures")
                .description("Audit records lost, and requests begun while the incident store could not write")
                .tag("store", store).register(registry).increment();
    }

    public void finding(String upstream, Category category) {
        Counter.builder("warden_gateway_sanitizer_findings").description("What the sanitizer removed, by kind")
                .tags("upstream", upstream, "category", category.label())
                .register(registry).increment();
    }

    /**
     * A request refused because a bound of the gateway was reached: {@code limit} names the
     * setting ({@code maxConnections}, {@code parkedCalls}, {@code parkedCallsPerClient}).
     */
    public void limitRefused(String upstream, String limit) {
        Counter.builder("warden_gateway_upstream_refusals").description("Requests refused at a limit, by setting")
                .tags("upstream", upstream, "limit", limit)
                .register(registry).increment();
    }

    /** Connections (for stdio, processes) the gateway holds open to an upstream. */
    public <T> void connections(String upstream, T slots, ToDoubleFunction<T> inUse) {
        io.micrometer.core.instrument.Gauge.builder("warden_gateway_upstream_connections", slots,
                inUse).description("Open connections (stdio: processes) to an upstream")
                .tag("upstream", upstream).register(registry);
    }

    /** Calls of stateless clients waiting for their input. */
    public <T> void parked(T parked, ToDoubleFunction<T> size) {
        io.micrometer.core.instrument.Gauge.builder("warden_gateway_parked_calls", parked, size)
                .description("Calls waiting for their stateless client's input").register(registry);
    }

    /** 0 closed, 1 open, 2 half-open (and 3 for the breaker's other states). */
    public void breaker(String upstream, CircuitBreaker breaker) {
        io.micrometer.core.instrument.Gauge.builder("warden_gateway_breaker_state", breaker, b -> switch (b.getState()) {
            case CLOSED -> 0;
            case OPEN -> 1;
            case HALF_OPEN -> 2;
            default -> 3;
        }).description("Circuit breaker state: 0 closed, 1 open, 2 half-open").tag("upstream", upstream)
                .register(registry);
    }
}
