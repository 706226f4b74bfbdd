package dev.warden.testkit.otlp;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.Span;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** OTLP's protobuf messages turned into the receiver's records. */
final class OtlpDecoding {

    private static final HexFormat HEX = HexFormat.of();

    private OtlpDecoding() {
    }

    static List<ReceivedSpan> spans(ExportTraceServiceRequest request) {
        List<ReceivedSpan> spans = new ArrayList<>();
        request.getResourceSpansList().forEach(resource -> {
            String service = serviceName(resource.getResource());
            resource.getScopeSpansList().forEach(scope -> scope.getSpansList()
                    .forEach(span -> spans.add(span(service, span))));
        });
        return spans;
    }

    static List<ReceivedMetric> metrics(ExportMetricsServiceRequest request) {
        List<ReceivedMetric> metrics = new ArrayList<>();
        request.getResourceMetricsList().forEach(resource -> {
            String service = serviceName(resource.getResource());
            resource.getScopeMetricsList().forEach(scope -> scope.getMetricsList()
                    .forEach(metric -> metrics.add(new ReceivedMetric(service, metric.getName(), metric.getUnit(),
                            points(metric)))));
        });
        return metrics;
    }

    private static ReceivedSpan span(String service, Span span) {
        Optional<String> parent = span.getParentSpanId().isEmpty() ? Optional.empty()
                : Optional.of(HEX.formatHex(span.getParentSpanId().toByteArray()));
        List<ReceivedSpan.Event> events = span.getEventsList().stream()
                .map(e -> new ReceivedSpan.Event(e.getName(), attributes(e.getAttributesList()))).toList();
        return new ReceivedSpan(service, HEX.formatHex(span.getTraceId().toByteArray()),
                HEX.formatHex(span.getSpanId().toByteArray()), parent, span.getName(),
                span.getKind().name().substring("SPAN_KIND_".length()), attributes(span.getAttributesList()), events,
                span.getStatus().getCode().name().substring("STATUS_CODE_".length()), span.getStatus().getMessage());
    }

    private static List<Map<String, Object>> points(Metric metric) {
        return switch (metric.getDataCase()) {
            case GAUGE -> metric.getGauge().getDataPointsList().stream().map(p -> attributes(p.getAttributesList())).toList();
            case SUM -> metric.getSum().getDataPointsList().stream().map(p -> attributes(p.getAttributesList())).toList();
            case HISTOGRAM -> metric.getHistogram().getDataPointsList().stream()
                    .map(p -> attributes(p.getAttributesList())).toList();
            case EXPONENTIAL_HISTOGRAM -> metric.getExponentialHistogram().getDataPointsList().stream()
                    .map(p -> attributes(p.getAttributesList())).toList();
            case SUMMARY -> metric.getSummary().getDataPointsList().stream()
                    .map(p -> attributes(p.getAttributesList())).toList();
            case DATA_NOT_SET -> List.of();
        };
    }

    private static String serviceName(Resource resource) {
        Object name = attributes(resource.getAttributesList()).get("service.name");
        return name == null ? "" : name.toString();
    }

    private static Map<String, Object> attributes(List<KeyValue> keyValues) {
        Map<String, Object> attributes = new LinkedHashMap<>();
        keyValues.forEach(kv -> attributes.put(kv.getKey(), value(kv.getValue())));
        return attributes;
    }

    private static Object value(AnyValue value) {
        return switch (value.getValueCase()) {
            case STRING_VALUE -> value.getStringValue();
            case BOOL_VALUE -> value.getBoolValue();
            case INT_VALUE -> value.getIntValue();
            case DOUBLE_VALUE -> value.getDoubleValue();
            case ARRAY_VALUE -> value.getArrayValue().getValuesList().stream().map(OtlpDecoding::value).toList();
            case KVLIST_VALUE -> attributes(value.getKvlistValue().getValuesList());
            case BYTES_VALUE -> HEX.formatHex(value.getBytesValue().toByteArray());
            case STRING_VALUE_STRINDEX -> "#" + value.getStringValueStrindex();
            case VALUE_NOT_SET -> "";
        };
    }
}
