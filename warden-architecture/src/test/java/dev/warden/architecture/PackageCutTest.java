package dev.warden.architecture;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.JavaClasses;
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
}
