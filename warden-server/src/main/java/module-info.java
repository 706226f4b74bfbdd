/** The server SDK: tools, resources and prompts served safe by default. */
module dev.warden.server {
    requires transitive dev.warden.core;
    requires transitive dev.warden.schema;
    requires transitive java.sql;

    exports dev.warden.server;
    exports dev.warden.server.auth;
    exports dev.warden.server.input;
    exports dev.warden.server.prompt;
    exports dev.warden.server.resource;
    exports dev.warden.server.sql;
    exports dev.warden.server.tool;
}
