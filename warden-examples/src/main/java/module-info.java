/** The demo and conformance servers the CLI runs. */
module dev.warden.examples {
    requires transitive dev.warden.server;
    requires dev.warden.client;
    requires java.sql;
    requires com.h2database;

    exports dev.warden.examples.conformance;
    exports dev.warden.examples.demo;
}
