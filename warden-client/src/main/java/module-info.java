/** The client SDK: stdio and Streamable HTTP, OAuth, multi-round calls, reconnects. */
module dev.warden.client {
    requires transitive dev.warden.core;
    requires transitive dev.warden.schema;
    // McpClient.Builder#telemetry takes an McpTelemetry.
    requires transitive dev.warden.telemetry;
    requires java.net.http;

    exports dev.warden.client;
    exports dev.warden.client.auth;
    exports dev.warden.client.http;
}
