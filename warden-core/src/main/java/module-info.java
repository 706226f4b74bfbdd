/**
 * Warden's core: wire records, the JSON-RPC codec, the session engine, transports, the error
 * model and renderer, the sanitizer, the incident store and OAuth metadata discovery (for the
 * resource server and the client alike, hence {@code java.net.http}). Every package is API: the
 * server, client, HTTP and gateway modules are built on all of them.
 */
module dev.warden.core {
    requires transitive tools.jackson.databind;
    requires transitive com.fasterxml.jackson.annotation;
    requires transitive java.net.http;

    exports dev.warden.core.cluster;
    exports dev.warden.core.error;
    exports dev.warden.core.failure;
    exports dev.warden.core.headers;
    exports dev.warden.core.identity;
    exports dev.warden.core.incident;
    exports dev.warden.core.json;
    exports dev.warden.core.jsonrpc;
    exports dev.warden.core.mcp;
    exports dev.warden.core.oauth;
    exports dev.warden.core.pin;
    exports dev.warden.core.protocol;
    exports dev.warden.core.sanitize;
    // What a scan finds, and the Detector a user may add to a Sanitizer: the gateway, the
    // auditor, the CLI and the incident store read findings.
    exports dev.warden.core.sanitize.detection;
    exports dev.warden.core.segment;
    exports dev.warden.core.session;
    exports dev.warden.core.shape;
    exports dev.warden.core.time;
    exports dev.warden.core.transport;

    // Wire records are read and written by Jackson's data binding.
    opens dev.warden.core.mcp to tools.jackson.databind;

    // User error shapes: a module provides them, the sanitizer finds them.
    uses dev.warden.core.shape.ErrorShape;
}
