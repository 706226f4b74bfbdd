/** The server SDK: tools, resources and prompts served safe by default. */
module dev.warden.server {
    // Typed tools: input and output schemas generated from records.
    requires com.github.victools.jsonschema.generator;
    requires com.github.victools.jsonschema.module.jackson;
    requires com.github.victools.jsonschema.module.jakarta.validation;
    requires com.fasterxml.classmate;

    requires transitive dev.warden.core;
    requires transitive dev.warden.schema;
    // McpServer.Builder#telemetry takes an McpTelemetry.
    requires transitive dev.warden.telemetry;
    // SqlStateClassifier reads SQLExceptions; no exported signature has a java.sql type, so a
    // server author's module does not read JDBC through Warden (ServerModuleReadsTest).
    requires java.sql;

    exports dev.warden.server;
    exports dev.warden.server.auth;
    exports dev.warden.server.sql;
}
