package dev.warden.adapter.mcpsdk;

import dev.warden.adapter.mcpsdk.guard.Failures;
import dev.warden.adapter.mcpsdk.guard.GuardedJsonMapper;
import dev.warden.adapter.mcpsdk.guard.McpErrorClassifier;
import dev.warden.adapter.mcpsdk.guard.Specs;
import dev.warden.core.error.FailureClassifier;
import dev.warden.core.incident.DataDirectory;
import dev.warden.core.incident.ErrorBoundary;
import dev.warden.core.incident.ErrorReporter;
import dev.warden.core.incident.FileIncidentStore;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.incident.IncidentStore;
import dev.warden.server.McpServer;
import io.modelcontextprotocol.json.McpJsonMapper;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Warden's errors for a server written with the official MCP Java SDK, in process. {@link #wrap}
 * puts the handlers of its tool, resource (and template), prompt and completion specifications
 * (sync, async, stateless) behind Warden's boundary: a {@code ToolFailure} keeps its code and text,
 * a {@code SQLException} is mapped by its SQLSTATE, anything else is {@code INTERNAL_ERROR}; each
 * gets a ref, and the original goes to the incident store only. {@link #jsonMapper} does the same
 * for what the SDK's transports write themselves (exception objects, its own -32603 text).
 *
 * <pre>{@code
 * WardenGuard guard = WardenGuard.ofDefaults();
 * McpJsonMapper mapper = guard.jsonMapper(McpJsonDefaults.getMapper());
 * var transport = HttpServletStreamableServerTransportProvider.builder().jsonMapper(mapper).build();
 * McpServer.sync(transport).jsonMapper(mapper).tools(guard.wrap(tools)).resources(guard.wrap(resources)).build();
 * }</pre>
 */
public final class WardenGuard implements AutoCloseable {

    private final Failures failures;
    private final Optional<IncidentStore> opened;

    private WardenGuard(ErrorBoundary boundary, Optional<IncidentStore> opened) {
        this.failures = new Failures(boundary);
        this.opened = opened;
    }

    /**
     * A guard whose incidents go to a {@link FileIncidentStore} in Warden's data directory
     * ({@code WARDEN_DATA_DIR}, else {@code ~/.local/share/warden}), where {@code warden incidents
     * show REF} finds them.
     */
    public static WardenGuard ofDefaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The specifications, in their order, each with the same definition and its handler behind the
     * boundary. Takes any of the SDK's specification records (a Spring context's beans too).
     *
     * @throws IllegalArgumentException for an element that is no specification the SDK's server takes
     */
    public <S> List<S> wrap(List<S> specs) {
        return specs.stream().map(this::wrapOne).toList();
    }

    /** One specification, as {@link #wrap(List)} guards it. */
    public <S> S wrapOne(S spec) {
        Objects.requireNonNull(spec, "spec");
        return wrapIfSpecification(spec).orElseThrow(() -> new IllegalArgumentException(
                spec.getClass().getName() + " is not a tool, resource, template, prompt or completion specification"));
    }

    /**
     * {@code candidate} guarded as {@link #wrapOne} guards it, or empty when it is no specification:
     * for a caller that meets objects of any type (a Spring context's beans).
     */
    @SuppressWarnings("unchecked") // Specs returns a record of the class it was given
    public <S> Optional<S> wrapIfSpecification(S candidate) {
        return Specs.wrap(Objects.requireNonNull(candidate, "candidate"), failures).map(spec -> (S) spec);
    }

    /**
     * {@code base} (e.g. {@code McpJsonDefaults.getMapper()}), writing Warden's error where the SDK
     * would write an exception object or an error it made itself. Give it to the transport's
     * builder (the transport writes the messages) and to the server's (which converts each
     * request's params: params that do not fit are then the caller's -32602).
     */
    public McpJsonMapper jsonMapper(McpJsonMapper base) {
        return new GuardedJsonMapper(base, failures);
    }

    /**
     * What {@link #jsonMapper}'s mapper writes in place of {@code value}: Warden's error body for an
     * exception object, the response with Warden's error for an internal error the SDK made itself;
     * any other value unchanged. For a transport that writes with a JSON library of its own, such as
     * Spring AI's WebMvc transports, whose error bodies Spring MVC's Jackson serializes.
     */
    public Object transportValue(Object value) {
        return GuardedJsonMapper.guarded(value, failures);
    }

    /** The boundary failures pass through: its incident sink, classifiers and reporters. */
    public ErrorBoundary boundary() {
        return failures.boundary();
    }

    /** Closes the incident store {@link #ofDefaults} opened; a sink given to the builder stays open. */
    @Override
    public void close() {
        opened.ifPresent(IncidentStore::close);
    }

    /**
     * The guard's boundary is a Warden server's, composed where {@code McpServer} composes it (your
     * classifiers, then the SQLSTATE mapping; your reporters and those {@code ServiceLoader} finds),
     * so an SDK server's failures get the codes a Warden server's would; an {@code McpError}'s code
     * is read after yours.
     */
    public static final class Builder {
        private final McpServer.Builder server = McpServer.builder("warden-mcp-sdk", "adapter");
        private boolean incidentsGiven;

        private Builder() {
        }

        /** Where incidents go instead of the file store in Warden's data directory. */
        public Builder incidents(IncidentSink sink) {
            server.incidents(sink);
            incidentsGiven = true;
            return this;
        }

        /** Maps the server's own exceptions to Warden's codes; consulted before the SQLSTATE mapping. */
        public Builder classifier(FailureClassifier classifier) {
            server.classifier(classifier);
            return this;
        }

        /** Told of every system failure, as well as the reporters {@code ServiceLoader} finds. */
        public Builder reporter(ErrorReporter reporter) {
            server.reporter(reporter);
            return this;
        }

        /** What dates the incidents. */
        public Builder clock(Clock clock) {
            server.clock(clock);
            return this;
        }

        public WardenGuard build() {
            Optional<IncidentStore> opened = incidentsGiven ? Optional.empty()
                    : Optional.of(FileIncidentStore.open(DataDirectory.incidents(Optional.empty())));
            opened.ifPresent(server::incidents);
            ErrorBoundary boundary = server.classifier(McpErrorClassifier.INSTANCE).build().boundary();
            return new WardenGuard(boundary, opened);
        }
    }
}
