package dev.warden.spring.boot;

import dev.warden.core.error.ErrorCode;
import dev.warden.http.server.McpHttpServer;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Locale;
import java.util.Optional;

/**
 * Warden's meters: {@code warden.failures} by {@code code}, and, when served over HTTP, the sessions
 * open ({@code warden.http.sessions}) and one counter per field of {@link McpHttpServer.Stats}
 * ({@code sessionsOpened} is {@code warden.http.sessions.opened}: in Prometheus the same names as the
 * {@code warden} command's metrics).
 */
final class WardenMeterBinder implements MeterBinder {

    private final FailureCounts failures;
    private final Optional<WardenHttpEndpoint> http;

    WardenMeterBinder(FailureCounts failures, Optional<WardenHttpEndpoint> http) {
        this.failures = failures;
        this.http = http;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (ErrorCode code : failures.codes()) {
            FunctionCounter.builder("warden.failures", failures, f -> f.count(code)).tag("code", code.name())
                    .description("Failures the server answered, by code (each has a ref and an incident)")
                    .register(registry);
        }
        http.ifPresent(endpoint -> {
            Gauge.builder("warden.http.sessions", endpoint, WardenHttpEndpoint::sessionCount)
                    .description("Streamable HTTP sessions open").register(registry);
            for (RecordComponent field : McpHttpServer.Stats.class.getRecordComponents()) {
                FunctionCounter.builder("warden.http." + dotted(field.getName()), endpoint,
                                e -> e.stats().map(stats -> read(field, stats)).orElse(0L))
                        .description("McpHttpServer.Stats#" + field.getName()).register(registry);
            }
        });
    }

    private static long read(RecordComponent field, McpHttpServer.Stats stats) {
        try {
            return (long) field.getAccessor().invoke(stats);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot read " + field.getName(), e);
        }
    }

    /** {@code sessionsOpened} → {@code sessions.opened}. */
    static String dotted(String camel) {
        StringBuilder out = new StringBuilder(camel.length() + 4);
        for (char c : camel.toCharArray()) {
            if (Character.isUpperCase(c)) {
                out.append('.').append(Character.toLowerCase(c));
            } else {
                out.append(c);
            }
        }
        return out.toString().toLowerCase(Locale.ROOT);
    }
}
