/** The black-box auditor: probes an MCP server from outside and reports what it leaks. */
module dev.warden.audit {
    requires transitive dev.warden.client;
    requires transitive java.net.http;
    // the loopback listener the URL canaries point at (com.sun.net.httpserver, in every JDK)
    requires jdk.httpserver;

    exports dev.warden.audit;
    exports dev.warden.audit.definitions;
    exports dev.warden.audit.http;
    exports dev.warden.audit.report;
}
