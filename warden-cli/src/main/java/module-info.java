/** The `warden` command: wrap, gateway, demo, sanitize, incidents and the rest. */
module dev.warden.cli {
    requires dev.warden.core;
    requires dev.warden.gateway;
    // warden gateway --console
    requires dev.warden.console;
    // redis: in warden.yaml: what several replicas share
    requires dev.warden.store.redis;
    requires dev.warden.auth;
    requires dev.warden.audit;
    requires dev.warden.store.postgres;
    // the stores' SQLExceptions (Stores, GatewayCommand)
    requires java.sql;
    requires tools.jackson.dataformat.yaml;
    requires dev.warden.http;
    requires dev.warden.server;
    requires dev.warden.examples;
    requires info.picocli;
    requires ch.qos.logback.classic;
    requires ch.qos.logback.core;
    requires org.slf4j;
    // the OpenTelemetry SDK's java.util.logging records, into Logback (TelemetrySdk)
    requires jul.to.slf4j;
    requires java.logging;
    requires jdk.httpserver;
    // sun.misc.Signal: SIGTERM drains the gateway instead of stopping it mid-call.
    requires jdk.unsupported;
    requires micrometer.core;
    requires micrometer.registry.prometheus;
    // Telemetry: the OpenTelemetry SDK, built from the OTEL_* variables (its exporters are found by
    // the autoconfiguration's ServiceLoader, so they need no requires).
    requires io.opentelemetry.api;
    requires io.opentelemetry.sdk;
    requires io.opentelemetry.sdk.common;
    requires io.opentelemetry.sdk.autoconfigure;
    requires io.opentelemetry.sdk.autoconfigure.spi;

    // picocli reads and sets the commands' annotated fields reflectively.
    opens dev.warden.cli to info.picocli;

    provides ch.qos.logback.classic.spi.Configurator with dev.warden.cli.LogSetup;
}
