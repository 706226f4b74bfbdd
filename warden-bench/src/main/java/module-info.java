/** JMH benchmarks of the hot code, and the end-to-end load driver. */
module dev.warden.bench {
    requires dev.warden.core;
    requires dev.warden.auth;
    requires com.nimbusds.jose.jwt;
    requires jdk.httpserver;
    requires java.net.http;
    // JMH has no module name of its own; its generated harness classes live in this module.
    requires jmh.core;

    // JMH's runner instantiates the benchmark classes and their generated subclasses reflectively.
    opens dev.warden.bench to jmh.core;
}
