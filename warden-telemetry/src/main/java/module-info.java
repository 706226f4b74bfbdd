/**
 * OpenTelemetry in MCP's own terms: the semantic conventions' names (and Warden's {@code warden.*}
 * ones) in one table, W3C context carried in a message's {@code params._meta}, server and client
 * operations as spans and duration histograms, ended with what the peer received and nothing more.
 * Only the OpenTelemetry API: a no-op until the application installs the SDK.
 */
module dev.warden.telemetry {
    requires transitive dev.warden.core;
    requires transitive io.opentelemetry.api;
    requires transitive io.opentelemetry.context;

    exports dev.warden.telemetry;
}
