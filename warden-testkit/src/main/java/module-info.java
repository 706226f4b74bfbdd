/** Test support shared by the modules' tests. */
module dev.warden.testkit {
    requires transitive org.junit.jupiter.api;
    // OtlpReceiver: OTLP's generated protobuf types, served by the JDK's HTTP server
    requires io.opentelemetry.proto;
    requires com.google.protobuf;
    requires jdk.httpserver;
    // InMemoryTelemetry: the OpenTelemetry SDK exporting to memory; only the modules whose tests use
    // it have the SDK (in test scope), so it is optional here.
    requires static io.opentelemetry.sdk.testing;
    requires static transitive io.opentelemetry.sdk;
    requires static transitive io.opentelemetry.sdk.trace;
    requires static transitive io.opentelemetry.sdk.metrics;
    requires static io.opentelemetry.sdk.common;
    requires static transitive io.opentelemetry.api;
    requires static io.opentelemetry.context;

    exports dev.warden.testkit;
    exports dev.warden.testkit.otlp;
    exports dev.warden.testkit.otel;
}
