/** The security gateway: any MCP server behind Warden's guarantees. */
module dev.warden.gateway {
    requires transitive dev.warden.core;
    requires transitive dev.warden.client;
    // Gateway.Builder.telemetry takes an McpTelemetry.
    requires transitive dev.warden.telemetry;
    // The auth: section is read by the resource server's own reader.
    requires dev.warden.auth;
    requires tools.jackson.dataformat.yaml;
    requires io.github.resilience4j.circuitbreaker;
    requires io.github.resilience4j.bulkhead;
    requires io.github.resilience4j.core;
    // ClockTimeMeter (exported in gateway.shared) is a Bucket4j TimeMeter.
    requires transitive io.github.bucket4j.core;
    // Gateway.Builder.metrics takes the caller's MeterRegistry.
    requires transitive micrometer.core;
    requires micrometer.registry.prometheus;

    exports dev.warden.gateway;
    exports dev.warden.gateway.auditlog;
    exports dev.warden.gateway.config;
    exports dev.warden.gateway.health;
    // What a shared store (warden-store-redis) implements for several replicas.
    exports dev.warden.gateway.shared;
}
