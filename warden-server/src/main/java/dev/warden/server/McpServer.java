package dev.warden.server;

import dev.warden.core.error.FailureClassifier;
import dev.warden.core.incident.ErrorBoundary;
import dev.warden.core.incident.ErrorReporter;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.mcp.Implementation;
import dev.warden.core.mcp.Resources;
import dev.warden.core.session.RequestOptions;
import dev.warden.core.transport.StdioTransport;
import dev.warden.core.transport.Transport;
import dev.warden.server.sql.SqlStateClassifier;
import dev.warden.server.internal.Catalog;
import dev.warden.server.internal.RequestStates;
import dev.warden.telemetry.McpTelemetry;
import java.time.Clock;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.invoke.MethodHandles;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An MCP server: its tools, resources and prompts, and the error boundary they run behind. One
 * server serves any number of connections ({@link #connect}); each has its own negotiated version.
 *
 * <pre>{@code
 * record Refund(@ToolParam(description = "The invoice to refund") String invoice) {}
 *
 * McpServer server = McpServer.builder("billing", "1.0.0")
 *         .tool(ToolSpec.of("refund", Refund.class, (refund, context) -> ...))
 *         .tools(new BillingTools())            // its @Tool methods
 *         .build();
 * server.serveStdio();
 * }</pre>
 */
public final class McpServer {

    public static final int DEFAULT_PAGE_SIZE = 100;

    private final Catalog catalog;
    private final ErrorBoundary boundary;
    private final int maxMessageBytes;
    private final Duration requestTimeout;
    private final Optional<CompletionHandler> completion;
    private final RequestStates requestStates;
    private final McpTelemetry telemetry;
    private final Set<ServerConnection> connections = ConcurrentHashMap.newKeySet();

    private McpServer(Builder b) {
        this.catalog = new Catalog(new Implementation(b.name, b.version, b.title), b.instructions, b.tools,
                b.resources, b.templates, b.prompts, b.pageSize, b.completion.isPresent(), b.resourceSubscriptions);
        ErrorBoundary.Builder boundaryBuilder = ErrorBoundary.builder().incidents(b.incidents).clock(b.clock);
        b.classifiers.forEach(boundaryBuilder::classifier);
        boundaryBuilder.classifier(SqlStateClassifier.INSTANCE);
        b.reporters.forEach(boundaryBuilder::reporter);
        ErrorReporter.discovered().forEach(boundaryBuilder::reporter);
        this.boundary = boundaryBuilder.build();
        this.maxMessageBytes = b.maxMessageBytes;
        this.requestTimeout = b.requestTimeout;
        this.completion = b.completion;
        this.requestStates = new RequestStates(b.requestStateKey, b.clock);
        // Spans and metrics are named by the tools and prompts registered here, not by any name a caller sends.
        this.telemetry = b.telemetry.knowing(dev.warden.server.internal.ServerTelemetry.registered(catalog));
    }

    public static Builder builder(String name, String version) {
        return new Builder(name, version);
    }

    /** Serves one connection over a transport; returns at once. */
    public ServerConnection connect(Transport transport) {
        ServerConnection connection = new ServerConnection(this, transport);
        opened(connection);
        connection.start();
        return connection;
    }

    /**
     * Serves over this process's stdin and stdout until stdin ends. Stdout then carries protocol
     * messages only: {@code System.out} is pointed at stderr so that a stray {@code println} in a
     * tool cannot corrupt the stream.
     */
    public void serveStdio() throws InterruptedException {
        InputStream in = new FileInputStream(FileDescriptor.in);
        OutputStream out = new FileOutputStream(FileDescriptor.out);
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8));
        ServerConnection connection = connect(StdioTransport.of(in, out, maxMessageBytes));
        try {
            connection.closed().join();
        } finally {
            connection.close();
        }
    }

    public Implementation info() {
        return catalog.info();
    }

    public Optional<String> instructions() {
        return catalog.instructions();
    }

    /**
     * The boundary this server's failures pass through (its incident sink, classifiers and
     * reporters). A transport that answers on the server's behalf, such as the HTTP server's
     * refusals, takes it too, so that those incidents land in the same place.
     */
    public ErrorBoundary boundary() {
        return boundary;
    }

    /** Tells every connection subscribed to {@code uri} that the resource changed. */
    public void resourceUpdated(String uri) {
        connections.forEach(c -> c.resourceUpdated(uri));
    }

    Catalog catalog() {
        return catalog;
    }

    Duration requestTimeout() {
        return requestTimeout;
    }

    Optional<CompletionHandler> completion() {
        return completion;
    }

    RequestStates requestStates() {
        return requestStates;
    }

    McpTelemetry telemetry() {
        return telemetry;
    }

    void opened(ServerConnection connection) {
        connections.add(connection);
        connection.closed().whenComplete((v, e) -> connections.remove(connection));
    }

    public static final class Builder {
        private final String name;
        private final String version;
        private Optional<String> title = Optional.empty();
        private Optional<String> instructions = Optional.empty();
        private final Map<String, ToolSpec> tools = new LinkedHashMap<>();
        private final Map<String, ResourceSpec> resources = new LinkedHashMap<>();
        private final List<ResourceTemplateSpec> templates = new ArrayList<>();
        private final Map<String, PromptSpec> prompts = new LinkedHashMap<>();
        private int pageSize = DEFAULT_PAGE_SIZE;
        private IncidentSink incidents = IncidentSink.stderr();
        private final List<FailureClassifier> classifiers = new ArrayList<>();
        private final List<ErrorReporter> reporters = new ArrayList<>();
        private int maxMessageBytes = StdioTransport.DEFAULT_MAX_MESSAGE_BYTES;
        private Duration requestTimeout = RequestOptions.DEFAULT_TIMEOUT;
        private Optional<CompletionHandler> completion = Optional.empty();
        private boolean resourceSubscriptions;
        private byte[] requestStateKey = randomKey();
        private Clock clock = Clock.systemUTC();
        private McpTelemetry telemetry = McpTelemetry.ofGlobal();

        private Builder(String name, String version) {
            this.name = requireText("name", name);
            this.version = requireText("version", version);
        }

        public Builder title(String title) {
            this.title = Optional.of(requireText("title", title));
            return this;
        }

        public Builder instructions(String instructions) {
            this.instructions = Optional.of(requireText("instructions", instructions));
            return this;
        }

        public Builder tool(ToolSpec spec) {
            Objects.requireNonNull(spec, "tool");
            if (tools.putIfAbsent(spec.name(), spec) != null) {
                throw new IllegalArgumentException("tool \"" + spec.name() + "\" is registered twice");
            }
            return this;
        }

        /**
         * Every {@link Tool} method of {@code target} as a tool ({@link ToolSpec#fromMethods(Object)});
         * misuse fails here, naming the method.
         */
        public Builder tools(Object target) {
            ToolSpec.fromMethods(target).forEach(this::tool);
            return this;
        }

        /** As {@link #tools(Object)}, the methods reached through the caller's {@code lookup}. */
        public Builder tools(Object target, MethodHandles.Lookup lookup) {
            ToolSpec.fromMethods(target, lookup).forEach(this::tool);
            return this;
        }

        public Builder resource(Resources.Resource resource, ResourceReader reader) {
            return resource(new ResourceSpec(resource, reader));
        }

        /** A resource at a fixed URI, as {@link ResourceSpec#builder} makes it. */
        public Builder resource(ResourceSpec spec) {
            Objects.requireNonNull(spec, "resource");
            if (resources.putIfAbsent(spec.resource().uri(), spec) != null) {
                throw new IllegalArgumentException("resource \"" + spec.resource().uri() + "\" is registered twice");
            }
            return this;
        }

        public Builder resourceTemplate(Resources.Template template, ResourceReader reader) {
            return resourceTemplate(ResourceTemplateSpec.of(template, reader));
        }

        /** Resources under a URI template, as {@link ResourceTemplateSpec#builder} makes them. */
        public Builder resourceTemplate(ResourceTemplateSpec spec) {
            templates.add(Objects.requireNonNull(spec, "resourceTemplate"));
            return this;
        }

        public Builder prompt(PromptSpec spec) {
            Objects.requireNonNull(spec, "prompt");
            if (prompts.putIfAbsent(spec.prompt().name(), spec) != null) {
                throw new IllegalArgumentException("prompt \"" + spec.prompt().name() + "\" is registered twice");
            }
            return this;
        }

        public Builder pageSize(int pageSize) {
            if (pageSize < 1) {
                throw new IllegalArgumentException("pageSize must be at least 1, got " + pageSize);
            }
            this.pageSize = pageSize;
            return this;
        }

        /** Where incident records go; stderr as JSON lines by default. */
        public Builder incidents(IncidentSink incidents) {
            this.incidents = Objects.requireNonNull(incidents, "incidents");
            return this;
        }

        public Builder classifier(FailureClassifier classifier) {
            classifiers.add(Objects.requireNonNull(classifier, "classifier"));
            return this;
        }

        public Builder reporter(ErrorReporter reporter) {
            reporters.add(Objects.requireNonNull(reporter, "reporter"));
            return this;
        }

        public Builder maxMessageBytes(int maxMessageBytes) {
            if (maxMessageBytes < 1024) {
                throw new IllegalArgumentException("maxMessageBytes must be at least 1024, got " + maxMessageBytes);
            }
            this.maxMessageBytes = maxMessageBytes;
            return this;
        }

        /** The timeout for requests the server sends to the client (pings, sampling...). */
        public Builder requestTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "requestTimeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("requestTimeout must be positive, got " + timeout);
            }
            this.requestTimeout = timeout;
            return this;
        }

        /** Serves {@code completion/complete} for prompt and resource-template arguments. */
        public Builder completion(CompletionHandler handler) {
            this.completion = Optional.of(Objects.requireNonNull(handler, "completion"));
            return this;
        }

        /**
         * Lets clients subscribe to resources ({@code resources/subscribe}); the server then tells
         * subscribers of changes through {@link McpServer#resourceUpdated}.
         */
        public Builder resourceSubscriptions(boolean enabled) {
            this.resourceSubscriptions = enabled;
            return this;
        }

        /**
         * The key that signs the {@code requestState} of input-required results (2026-07-28). Random
         * per process by default; servers behind a load balancer share one (at least 32 bytes) so
         * any instance accepts the states another issued.
         */
        public Builder requestStateKey(byte[] key) {
            Objects.requireNonNull(key, "requestStateKey");
            if (key.length < 32) {
                throw new IllegalArgumentException("requestStateKey must have at least 32 bytes, got " + key.length);
            }
            this.requestStateKey = key.clone();
            return this;
        }

        /**
         * What decides when a {@code requestState} has expired and dates the incidents: the system
         * clock (UTC) unless given, a clock the caller drives otherwise.
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Where the spans and duration metrics of every message this server handles go, on every
         * transport: {@link McpTelemetry#ofGlobal()} by default (nothing until the application
         * installs the OpenTelemetry SDK), {@link McpTelemetry#noop()} for none. Spans hold what the
         * client received and nothing more: docs/reference/telemetry.md.
         */
        public Builder telemetry(McpTelemetry telemetry) {
            this.telemetry = Objects.requireNonNull(telemetry, "telemetry");
            return this;
        }

        private static byte[] randomKey() {
            byte[] key = new byte[32];
            new java.security.SecureRandom().nextBytes(key);
            return key;
        }

        public McpServer build() {
            return new McpServer(this);
        }

        private static String requireText(String what, String value) {
            Objects.requireNonNull(value, what);
            if (value.isBlank()) {
                throw new IllegalArgumentException(what + " must not be blank");
            }
            return value;
        }
    }
}
