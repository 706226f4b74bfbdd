package dev.warden.architecture;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The cut of each large module into packages by concern, as layers: a package may use the ones
 * below it and never one above, so a class that lands in the wrong package fails here rather than
 * slowly turning the cut back into a grab-bag.
 */
class PackageCutTest {

    static JavaClasses warden;

    @BeforeAll
    static void importMainCode() {
        warden = MainCode.classes();
    }

    @Test
    void streamable_http_is_cut_into_request_stream_seal_settings_session_replica_stateless_route() {
        String internal = "dev.warden.http.server.internal.";
        layeredArchitecture().consideringOnlyDependenciesInAnyPackage("dev.warden.http..")
                .withOptionalLayers(false)
                .layer("api").definedBy("dev.warden.http.server")
                .layer("route").definedBy(internal + "route")
                .layer("stateless").definedBy(internal + "stateless")
                .layer("replica").definedBy(internal + "replica")
                .layer("session").definedBy(internal + "session")
                .layer("settings").definedBy(internal + "settings")
                .layer("seal").definedBy(internal + "seal")
                .layer("stream").definedBy(internal + "stream")
                .layer("request").definedBy(internal + "request")
                .whereLayer("route").mayOnlyBeAccessedByLayers("api")
                .whereLayer("stateless").mayOnlyBeAccessedByLayers("route")
                .whereLayer("replica").mayOnlyBeAccessedByLayers("route")
                .whereLayer("session").mayOnlyBeAccessedByLayers("route", "stateless", "replica", "api")
                .whereLayer("settings").mayOnlyBeAccessedByLayers("route", "stateless", "replica", "session", "api")
                .whereLayer("seal").mayOnlyBeAccessedByLayers("route", "session", "settings", "api")
                .whereLayer("stream").mayOnlyBeAccessedByLayers("route", "stateless", "replica", "session", "settings")
                .whereLayer("request").mayOnlyBeAccessedByLayers(
                        "route", "stateless", "replica", "session", "settings", "api")
                .check(warden);
    }

    /**
     * The sanitizer: the API at the root composes detectors, one package per concern, which share
     * the scanning tools and, at the bottom, what a detection is. A concern never uses another
     * (injection reads JSON pointers, which it must not take for paths).
     */
    @Test
    void the_sanitizer_is_cut_into_concerns_over_scan_over_detection() {
        String sanitize = "dev.warden.core.sanitize.";
        String[] concerns = {"credential", "database", "trace", "topology", "pii", "injection"};
        layeredArchitecture().consideringOnlyDependenciesInAnyPackage("dev.warden.core.sanitize..")
                .withOptionalLayers(false)
                .layer("api").definedBy("dev.warden.core.sanitize")
                .layer("credential").definedBy(sanitize + "credential")
                .layer("database").definedBy(sanitize + "database")
                .layer("trace").definedBy(sanitize + "trace")
                .layer("topology").definedBy(sanitize + "topology")
                .layer("pii").definedBy(sanitize + "pii")
                .layer("injection").definedBy(sanitize + "injection")
                .layer("path").definedBy(sanitize + "path")
                .layer("scan").definedBy(sanitize + "scan")
                .layer("detection").definedBy(sanitize + "detection")
                .whereLayer("api").mayNotBeAccessedByAnyLayer()
                .whereLayer("credential").mayOnlyBeAccessedByLayers("api")
                .whereLayer("database").mayOnlyBeAccessedByLayers("api")
                .whereLayer("trace").mayOnlyBeAccessedByLayers("api")
                .whereLayer("topology").mayOnlyBeAccessedByLayers("api")
                .whereLayer("pii").mayOnlyBeAccessedByLayers("api")
                .whereLayer("injection").mayOnlyBeAccessedByLayers("api")
                .whereLayer("path").mayOnlyBeAccessedByLayers("api", "injection")
                .whereLayer("scan").mayOnlyBeAccessedByLayers(with(concerns, "api", "path"))
                .whereLayer("detection").mayOnlyBeAccessedByLayers(with(concerns, "api", "path", "scan"))
                .check(warden);
    }

    @Test
    void no_package_of_the_sanitizer_depends_on_one_that_depends_back_on_it() {
        slices().matching("dev.warden.core.sanitize.(*)..").should().beFreeOfCycles().check(warden);
    }

    private static String[] with(String[] layers, String... more) {
        return Stream.concat(Arrays.stream(layers), Arrays.stream(more)).toArray(String[]::new);
    }

    @Test
    void the_gateway_is_cut_into_metrics_limits_failure_upstream_client_catalog_audit_parked_call_connection_tracing() {
        String internal = "dev.warden.gateway.internal";
        layeredArchitecture().consideringOnlyDependenciesInAnyPackage("dev.warden.gateway..")
                .withOptionalLayers(false)
                .layer("api").definedBy("dev.warden.gateway")
                .layer("config").definedBy("dev.warden.gateway.config")
                .layer("connection").definedBy(internal)
                .layer("call").definedBy(internal + ".call")
                .layer("parked").definedBy(internal + ".parked")
                .layer("audit").definedBy(internal + ".audit")
                .layer("catalog").definedBy(internal + ".catalog")
                .layer("client").definedBy(internal + ".client")
                .layer("upstream").definedBy(internal + ".upstream")
                .layer("failure").definedBy(internal + ".failure")
                .layer("limits").definedBy(internal + ".limits")
                .layer("metrics").definedBy(internal + ".metrics")
                .layer("access").definedBy(internal + ".access")
                .layer("tracing").definedBy(internal + ".tracing")
                .whereLayer("connection").mayOnlyBeAccessedByLayers("api")
                .whereLayer("call").mayOnlyBeAccessedByLayers("api", "connection")
                .whereLayer("parked").mayOnlyBeAccessedByLayers("api", "call")
                .whereLayer("audit").mayOnlyBeAccessedByLayers("api", "connection", "call")
                .whereLayer("catalog").mayOnlyBeAccessedByLayers("api", "connection", "call", "audit")
                .whereLayer("client").mayOnlyBeAccessedByLayers("connection", "call")
                .whereLayer("upstream").mayOnlyBeAccessedByLayers(
                        "api", "connection", "call", "parked", "audit", "catalog", "client")
                .whereLayer("failure").mayOnlyBeAccessedByLayers(
                        "api", "connection", "call", "catalog", "client", "upstream")
                .whereLayer("limits").mayOnlyBeAccessedByLayers(
                        "api", "connection", "call", "parked", "client", "upstream", "failure")
                .whereLayer("metrics").mayOnlyBeAccessedByLayers("api", "call", "audit", "upstream", "limits")
                .whereLayer("access").mayOnlyBeAccessedByLayers("api", "config", "connection", "call")
                // Spans know telemetry and core only: every part of the call path may make or end one.
                .whereLayer("tracing").mayOnlyBeAccessedByLayers("connection", "call", "parked", "upstream")
                .check(warden);
    }
}
