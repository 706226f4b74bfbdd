/** The server SDK: tools, resources and prompts served safe by default. */
module dev.warden.server {
    requires transitive dev.warden.core;
    requires transitive dev.warden.schema;
    requires transitive java.sql;

    exports dev.warden.server;
    exports dev.warden.server.auth;
    exports dev.warden.server.sql;
}
