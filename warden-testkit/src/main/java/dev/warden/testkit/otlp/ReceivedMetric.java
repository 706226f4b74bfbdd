package dev.warden.testkit.otlp;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One metric as an OTLP exporter sent it: its name, unit, the service.name of its resource, and
 * the attribute sets of its data points (values are not kept: tests assert on what was recorded
 * and how it is labelled, never on timings).
 */
public record ReceivedMetric(String serviceName, String name, String unit, List<Map<String, Object>> points) {

    public ReceivedMetric {
        Objects.requireNonNull(serviceName, "serviceName");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(unit, "unit");
        points = points.stream().map(Map::copyOf).toList();
    }
}
