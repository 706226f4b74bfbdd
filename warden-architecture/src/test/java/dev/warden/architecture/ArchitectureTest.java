package dev.warden.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.error.WardenException;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.session.Session;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The rules that keep the house livable, over the main code of every module (tests excluded).
 * The module descriptors already stop one module from reaching another's unexported packages;
 * these add what a descriptor cannot say.
 */
class ArchitectureTest {

    /** Warden's modules by their root package, lowest first. */
    static final List<String> MODULES = List.of("core", "telemetry", "schema", "server", "http", "auth", "client",
            "audit", "gateway", "console", "store", "examples", "cli", "adapter", "spring");

    static JavaClasses warden;

    @BeforeAll
    static void importMainCode() {
        warden = MainCode.classes();
        // Main code arrives from the reactor: target/classes directories up to `test`, the modules'
        // jars from `package` on. A mistake in the class path would make every rule below pass
        // vacuously.
        for (String module : MODULES) {
            boolean present = warden.stream().anyMatch(c -> c.getPackageName().startsWith("dev.warden." + module));
            if (!present) {
                throw new AssertionError("no main classes of warden-" + module + " were imported");
            }
        }
    }

    @Test
    void modules_depend_only_downwards_core_then_schema_server_client_http_auth_then_gateway_then_cli() {
        ArchRule layers = layeredArchitecture().consideringOnlyDependenciesInAnyPackage("dev.warden..")
                .layer("core").definedBy("dev.warden.core..")
                .layer("schema").definedBy("dev.warden.schema..")
                .layer("server").definedBy("dev.warden.server..")
                .layer("http").definedBy("dev.warden.http..")
                .layer("auth").definedBy("dev.warden.auth..")
                .layer("client").definedBy("dev.warden.client..")
                .layer("telemetry").definedBy("dev.warden.telemetry..")
                .layer("audit").definedBy("dev.warden.audit..")
                .layer("gateway").definedBy("dev.warden.gateway..")
                .layer("console").definedBy("dev.warden.console..")
                .layer("store").definedBy("dev.warden.store..")
                .layer("examples").definedBy("dev.warden.examples..")
                .layer("cli").definedBy("dev.warden.cli..")
                .layer("adapter").definedBy("dev.warden.adapter..")
                .layer("spring").definedBy("dev.warden.spring..")
                .whereLayer("cli").mayNotBeAccessedByAnyLayer()
                .whereLayer("adapter").mayNotBeAccessedByAnyLayer()
                .whereLayer("spring").mayOnlyBeAccessedByLayers("examples")
                .whereLayer("examples").mayOnlyBeAccessedByLayers("cli")
                .whereLayer("store").mayOnlyBeAccessedByLayers("cli")
                .whereLayer("console").mayOnlyBeAccessedByLayers("cli")
                .whereLayer("gateway").mayOnlyBeAccessedByLayers("store", "console", "cli")
                .whereLayer("audit").mayOnlyBeAccessedByLayers("cli")
                .whereLayer("server").mayOnlyBeAccessedByLayers("examples", "cli", "adapter", "spring")
                .whereLayer("http").mayOnlyBeAccessedByLayers("console", "examples", "cli", "spring")
                .whereLayer("auth").mayOnlyBeAccessedByLayers("gateway", "examples", "cli")
                // Over core only: spans and metrics for the SDK, the gateway and the command.
                .whereLayer("telemetry").mayOnlyBeAccessedByLayers("server", "client", "http", "gateway", "audit",
                        "examples", "cli", "adapter", "spring", "store")
                // The console signs operators in as an OAuth client: the client's one code grant.
                .whereLayer("client").mayOnlyBeAccessedByLayers("audit", "gateway", "console", "examples", "cli")
                .whereLayer("schema").mayOnlyBeAccessedByLayers("server", "client", "audit", "gateway", "examples",
                        "cli", "adapter");
        layers.check(warden);
    }

    @Test
    void no_package_depends_on_a_package_that_depends_back_on_it() {
        slices().assignedFrom(PACKAGE_WITH_ITS_INTERNALS).should().beFreeOfCycles().check(warden);
    }

    /**
     * Each package is a slice, except that {@code X.internal} belongs to {@code X}: JPMS hides it, and it
     * implements the types a user imports from {@code X} (the server's {@code McpServer} builds its engine
     * there, and the engine serves the {@code ToolSpec}s of the same package). Any other cycle still fails.
     */
    private static final SliceAssignment PACKAGE_WITH_ITS_INTERNALS = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String name = javaClass.getPackageName();
            if (!name.startsWith("dev.warden.")) {
                return SliceIdentifier.ignore();
            }
            int internal = name.indexOf(".internal");
            boolean directInternal = internal > 0 && name.indexOf('.', internal + 1) < 0;
            return SliceIdentifier.of(directInternal ? name.substring(0, internal) : name);
        }

        @Override
        public String getDescription() {
            return "packages of dev.warden, each with its own direct .internal package";
        }
    };

    @Test
    void internal_packages_are_used_only_inside_their_module() {
        for (String module : MODULES) {
            String root = "dev.warden." + module;
            noClasses().that().resideOutsideOfPackage(root + "..")
                    .should().dependOnClassesThat().resideInAPackage(root + "..internal..")
                    .as("classes outside warden-" + module + " should not use its internal packages")
                    .check(warden);
        }
    }

    @Test
    void only_the_error_model_and_the_codec_build_a_json_rpc_error() {
        noClasses().that().resideOutsideOfPackages("dev.warden.core.error..", "dev.warden.core.jsonrpc..")
                .should().callConstructor(JsonRpcError.class, int.class, String.class, java.util.Optional.class)
                .orShould().callMethod(JsonRpcError.class, "of", int.class, String.class)
                .orShould().callMethod(JsonRpcError.class, "of", int.class, String.class,
                        tools.jackson.databind.JsonNode.class)
                .as("a failure reaches a peer only as core.error renders it")
                .check(warden);
    }

    /**
     * One recorder: every incident is written by core's {@code ErrorBoundary}, which gives it its
     * ref, its time, its caller and its share of a window of refusals of one kind. A class that
     * wrote to a sink or store itself would hand out refs the recorder never saw. The sinks of
     * {@code core.incident} (which forward to one another) are where incidents land, not where
     * they are made.
     */
    @Test
    void only_the_recorder_writes_incidents() {
        DescribedPredicate<JavaCall<?>> writesAnIncident = new DescribedPredicate<>("record(Incident) on a sink") {
            @Override
            public boolean test(JavaCall<?> call) {
                return call.getName().equals("record")
                        && call.getTargetOwner().isAssignableTo(IncidentSink.class);
            }
        };
        noClasses().that().resideOutsideOfPackage("dev.warden.core.incident..")
                .should().callMethodWhere(writesAnIncident)
                .as("incidents are written only by core's recorder (ErrorBoundary)")
                .check(warden);
    }

    /**
     * One classifier: a failure's code is decided by {@code dev.warden.core.failure} (the
     * {@code Classifier} and the tables it reads), never read from a name elsewhere. Turning a
     * name into an {@link ErrorCode} ({@code values()}, {@code valueOf}) is what taking a code
     * from an upstream's evidence comes down to. Left out: the error model itself, the incident
     * store reading back what it wrote, and the command line reading an operator's
     * {@code --code}; and the lookup tables javac makes for a {@code switch} over the codes.
     */
    @Test
    void only_the_classifier_reads_a_code_from_a_name() {
        DescribedPredicate<JavaCall<?>> readsACode = new DescribedPredicate<>("ErrorCode.values() or valueOf") {
            @Override
            public boolean test(JavaCall<?> call) {
                return call.getTargetOwner().isEquivalentTo(ErrorCode.class)
                        && (call.getName().equals("values") || call.getName().equals("valueOf"))
                        && call.getOriginOwner().getFields().stream()
                                .noneMatch(f -> f.getName().startsWith("$SwitchMap$"));
            }
        };
        noClasses().that().resideOutsideOfPackages("dev.warden.core.failure..", "dev.warden.core.error..",
                        "dev.warden.core.incident..", "dev.warden.cli..")
                .should().callMethodWhere(readsACode)
                .as("only core.failure's Classifier turns upstream evidence into an ErrorCode")
                .check(warden);
    }

    /**
     * One reply value: in the gateway an upstream's JSON-RPC error is read where a transport's
     * failure becomes a reply ({@code UpstreamFailures}, into the sealed {@code UpstreamReply}
     * every caller switches on) and where an incident is drafted from it ({@code
     * UpstreamIncidents}); nowhere else is it caught, thrown or held, so a failure is never turned
     * value, exception, value again on its way to the client.
     */
    @Test
    void only_the_call_path_reads_an_upstreams_error_in_the_gateway() {
        DescribedPredicate<JavaClass> whereAReplyIsMade = new DescribedPredicate<>(
                "UpstreamFailures or UpstreamIncidents") {
            @Override
            public boolean test(JavaClass c) {
                int nested = c.getName().indexOf('$');
                String top = nested < 0 ? c.getName() : c.getName().substring(0, nested);
                return top.endsWith(".UpstreamFailures") || top.endsWith(".UpstreamIncidents");
            }
        };
        noClasses().that().resideInAPackage("dev.warden.gateway..").and(DescribedPredicate.not(whereAReplyIsMade))
                .should().dependOnClassesThat().areAssignableTo(PeerErrorException.class)
                .as("the gateway reads an upstream's error only where it becomes an UpstreamReply")
                .check(warden);
    }

    /**
     * The caller set one way: who a gateway incident was met by is passed explicitly, through the
     * client connection's view of each recorder ({@code ClientProfile.pipeline}, {@code
     * PinWatch.servedTo}), never read from the thread, which a virtual thread, a task or a parked
     * call's next round would not carry.
     */
    @Test
    void the_gateway_keeps_nothing_per_thread() {
        noClasses().that().resideInAPackage("dev.warden.gateway..")
                .should().dependOnClassesThat().areAssignableTo(ThreadLocal.class)
                .as("the gateway passes the caller explicitly, never in a ThreadLocal")
                .check(warden);
    }

    /**
     * One server-side protocol core: the version {@code initialize} settles on, what the session
     * then allows and the initialize result are decided in {@code core.protocol}, for the SDK's
     * server and the gateway alike, and for the HTTP transport that follows the exchange; none
     * negotiates on its own.
     */
    @Test
    void the_server_and_the_gateway_settle_the_protocol_version_only_through_the_core() {
        DescribedPredicate<JavaCall<?>> settlesTheVersion = new DescribedPredicate<>(
                "ProtocolVersion.negotiate, Session.allowBatches or new InitializeResult") {
            @Override
            public boolean test(JavaCall<?> call) {
                String owner = call.getTargetOwner().getName();
                String name = call.getName();
                return owner.equals(ProtocolVersion.class.getName()) && name.equals("negotiate")
                        || owner.equals(Session.class.getName()) && name.equals("allowBatches")
                        || owner.equals(Lifecycle.InitializeResult.class.getName()) && name.equals("<init>");
            }
        };
        noClasses().that().resideInAnyPackage("dev.warden.server..", "dev.warden.gateway..", "dev.warden.http..")
                .should().callCodeUnitWhere(settlesTheVersion)
                .as("warden-server, the gateway and warden-http agree on a protocol version only through core.protocol")
                .check(warden);
    }

    /**
     * Every exception that can leave the code that threw it (unchecked, or public) descends from
     * the sealed {@link WardenException}, so a switch that turns one into an answer is checked by
     * the compiler. Left out on purpose: checked exceptions that stay package-private (typed
     * control flow the compiler makes each caller handle, such as the gateway's guard refusing a
     * call; or public in an {@code internal} package, which no module exports, so the same holds
     * across the packages of one module; unchecked, a {@code catch (RuntimeException e)} on the way could swallow them) and
     * {@link Error}s (the server's signal that a tool needs input must pass through a tool's own
     * {@code catch (Exception e)}).
     */
    @Test
    void every_exception_that_can_escape_is_a_warden_exception() {
        DescribedPredicate<JavaClass> escapes = new DescribedPredicate<>("unchecked or public exceptions") {
            @Override
            public boolean test(JavaClass c) {
                return c.isAssignableTo(RuntimeException.class)
                        || (c.isAssignableTo(Exception.class) && c.getModifiers().contains(JavaModifier.PUBLIC)
                                && !c.getPackageName().contains(".internal"));
            }
        };
        classes().that().resideInAPackage("dev.warden..").and(escapes)
                .should().beAssignableTo(WardenException.class)
                .as("every exception Warden defines that can escape descends from the sealed WardenException")
                .check(warden);
    }
}
