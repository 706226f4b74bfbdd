package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * Issue 17's recall on failures as real runtimes produce them, not as a test types them: {@code
 * warden audit} against two leaky stdio servers in {@code src/test/runtimes}, one in Python 3
 * ({@code traceback.format_exc()}, an {@code OSError} naming a file under the server's own directory,
 * sqlite3's constraint and column errors, DATABASE_URL echoed in a configuration error, a traceback in
 * a log notification) and one in Java run as a single-file program ({@code printStackTrace}, a
 * {@code NoSuchFileException} with the trace in {@code error.data} as the official Java SDK sends it,
 * DATABASE_URL echoed, a trace in a log notification). Each planted leak is reported with its rule,
 * tool, category and location; through {@code warden wrap} none is.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuditRealRuntimesEndToEndTest {

    static final Path RUNTIMES = Path.of(System.getProperty("warden.runtimes.dir", "src/test/runtimes"))
            .toAbsolutePath().normalize();
    /** The JDK the tests run on runs the Java server too. */
    static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    static final String PYTHON = System.getProperty("warden.python", "python3");

    /** Planted through the environment: a password and an internal address the caller never sent. */
    private static final String PASSWORD = "Zq8v3xT9pLm2w";
    private static final String HOST = "10.20.30.40";
    private static final Map<String, String> ENVIRONMENT = Map.of("DATABASE_URL",
            "postgres://billing:" + PASSWORD + "@" + HOST + ":5432/billing");
    /** Planted in the servers' own code: names only they know (the report names the command, so its directory). */
    private static final List<String> CANARIES = List.of(PASSWORD, HOST, "cnry_orders_7f3a", "cnry_uq_order_email_7f3a",
            "cnry_secret_col_7f3a", "cnry_q3_7f3a", "cnry_app_7f3a");

    /** A planted leak as the report must name it. */
    record Planted(String rule, String tool, String category, String location) {
    }

    private static final List<Planted> PYTHON_LEAKS = List.of(
            new Planted("WDN-L001", "py_traceback", "stack-trace", "/result/content/0/text"),
            new Planted("WDN-L003", "py_missing_file", "path", "/result/content/0/text"),
            new Planted("WDN-L004", "py_sqlite_constraint", "database", "/error/data/detail"),
            new Planted("WDN-L004", "py_sqlite_column", "database", "/result/content/0/text"),
            new Planted("WDN-L002", "py_config", "secret", "/result/content/0/text"),
            new Planted("WDN-L005", "py_config", "topology", "/result/content/0/text"),
            new Planted("WDN-L001", "py_log", "stack-trace", "/params/data"));
    private static final List<Planted> JAVA_LEAKS = List.of(
            new Planted("WDN-L001", "java_stack_trace", "stack-trace", "/result/content/0/text"),
            new Planted("WDN-L003", "java_missing_file", "path", "/error/message"),
            new Planted("WDN-L001", "java_missing_file", "stack-trace", "/error/data"),
            new Planted("WDN-L002", "java_config", "secret", "/result/content/0/text"),
            new Planted("WDN-L005", "java_config", "topology", "/result/content/0/text"),
            new Planted("WDN-L001", "java_log", "stack-trace", "/params/data"));

    private Processes.Result python;
    private Processes.Result javaDirect;
    private Processes.Result pythonWrapped;
    private Processes.Result javaWrapped;

    private static List<String> pythonServer() {
        return List.of(PYTHON, RUNTIMES.resolve("leaky_server.py").toString());
    }

    private static List<String> javaServer() {
        return List.of(JAVA, "-Dleaky.home=" + RUNTIMES, RUNTIMES.resolve("LeakyServer.java").toString());
    }

    private static Processes.Result audit(List<String> server, boolean wrapped) throws Exception {
        List<String> command = new ArrayList<>(List.of(Processes.LAUNCHER.toString(), "audit", "--format", "json",
                "--fail-on", "none", "--"));
        if (wrapped) {
            command.addAll(List.of(Processes.LAUNCHER.toString(), "wrap", "--data-dir",
                    Files.createTempDirectory("warden-audit-runtimes").toString(), "--"));
        }
        command.addAll(server);
        Processes.Result run = Processes.run(command, ENVIRONMENT);
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        return run;
    }

    @BeforeAll
    void auditBothServersDirectAndWrapped() throws Exception {
        python = audit(pythonServer(), false);
        javaDirect = audit(javaServer(), false);
        pythonWrapped = audit(pythonServer(), true);
        javaWrapped = audit(javaServer(), true);
    }

    private static List<Planted> reported(Processes.Result run) {
        return findings(run).stream().filter(f -> f.has("evidence"))
                .map(f -> new Planted(f.get("ruleId").stringValue(), f.path("tool").asString(""),
                        f.get("evidence").get("category").stringValue(), f.get("location").stringValue()))
                .toList();
    }

    private static List<JsonNode> findings(Processes.Result run) {
        return Json.mapper().readTree(run.stdout()).get("findings").valueStream().toList();
    }

    @Test
    void eachLeakOfThePythonServerIsReportedWithItsRuleToolCategoryAndLocation() {
        assertThat(reported(python)).containsAll(PYTHON_LEAKS);
    }

    @Test
    void eachLeakOfTheJavaServerIsReportedWithItsRuleToolCategoryAndLocation() {
        assertThat(reported(javaDirect)).containsAll(JAVA_LEAKS);
    }

    @Test
    void noReportHoldsAPlantedValue() {
        for (Processes.Result run : List.of(python, javaDirect, pythonWrapped, javaWrapped)) {
            for (String canary : CANARIES) {
                assertThat(run.stdout()).doesNotContain(canary);
                assertThat(run.stderr()).doesNotContain(canary);
            }
        }
    }

    @Test
    void throughWardenWrapNeitherServerLeaksInItsAnswers() {
        for (Processes.Result run : List.of(pythonWrapped, javaWrapped)) {
            assertThat(findings(run).stream().map(f -> f.get("ruleId").stringValue()))
                    .noneMatch(id -> id.startsWith("WDN-L00"));
        }
    }
}
