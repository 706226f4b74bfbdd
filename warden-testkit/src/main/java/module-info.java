/** Test support shared by the modules' tests. */
module dev.warden.testkit {
    requires transitive org.junit.jupiter.api;
    // OtlpReceiver: OTLP's generated protobuf types, served by the JDK's HTTP server
    requires io.opentelemetry.proto;
    requires com.google.protobuf;
    requires jdk.httpserver;

    exports dev.warden.testkit;
    exports dev.warden.testkit.otlp;
}
