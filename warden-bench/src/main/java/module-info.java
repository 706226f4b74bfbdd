/** JMH benchmarks of the hot code, and the end-to-end load driver. */
module dev.warden.bench {
    requires dev.warden.core;
    requires dev.warden.auth;
    requires dev.warden.telemetry;
    requires io.opentelemetry.api;
    requires io.opentelemetry.context;
    requires io.opentelemetry.sdk;
    requires io.opentelemetry.sdk.common;
    requires io.opentelemetry.sdk.trace;
    requires io.opentelemetry.sdk.metrics;
    requires io.opentelemetry.sdk.testing;
    requires io.opentelemetry.exporter.internal;
    requires io.opentelemetry.exporter.internal.otlp;
    requires tools.jackson.databind;
    requires com.nimbusds.jose.jwt;
    requires jdk.httpserver;
    requires java.net.http;
    // JMH has no module name of its own; its generated harness classes live in this module.
    requires jmh.core;

    // JMH's runner instantiates the benchmark classes and their generated subclasses reflectively.
    opens dev.warden.bench to jmh.core;
}
