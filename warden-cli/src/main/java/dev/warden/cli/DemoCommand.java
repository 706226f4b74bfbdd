package dev.warden.cli;

import dev.warden.core.incident.FileIncidentStore;
import dev.warden.core.incident.IncidentSink;
import dev.warden.core.incident.JsonLinesIncidentSink;
import dev.warden.core.transport.StdioTransport;
import dev.warden.examples.conformance.ConformanceServer;
import dev.warden.examples.demo.DemoServer;
import dev.warden.http.server.McpHttpServer;
import dev.warden.http.server.McpHttpServerBuilder;
import dev.warden.server.McpServer;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code warden demo}: the demo server (or the conformance fixture) over stdio or Streamable HTTP. */
@Command(name = "demo", mixinStandardHelpOptions = true, modelTransformer = DemoCommand.Wording.class,
        description = {"Runs the demo MCP server over stdio (newline-delimited JSON-RPC on stdin/stdout), or over "
                + "Streamable HTTP with --http PORT (at http://127.0.0.1:PORT/mcp).",
                "Its tools exercise every failure kind. --conformance serves the conformance fixture instead "
                        + "(what the official conformance suite's reference server offers).",
                "Incidents go to stderr as JSON lines unless --incident-log is given."})
final class DemoCommand implements Callable<Integer> {

    @Mixin
    HttpLimitsOptions httpLimits = new HttpLimitsOptions();

    @Mixin
    ServeOptions serve = new ServeOptions();

    @Option(names = "--http", paramLabel = "PORT",
            description = "Serve over Streamable HTTP on 127.0.0.1:PORT at /mcp instead of stdio (0 picks a port).")
    Integer httpPort;

    @Option(names = "--auth", paramLabel = "FILE",
            description = "With --http: authenticate every request as FILE says (the keys of warden.yaml's auth "
                    + "section: OAuth issuers, scopes, API keys), as an OAuth 2.1 resource server.")
    java.nio.file.Path auth;

    @Option(names = "--conformance",
            description = "Serve the conformance fixture instead of the demo.")
    boolean conformance;

    /** The demo has no retention for its log, and its store is there for `warden incidents`. */
    static final class Wording implements CommandLine.IModelTransformer {
        @Override
        public CommandLine.Model.CommandSpec transform(CommandLine.Model.CommandSpec command) {
            return OwnWording.apply(command, Map.of(
                    IncidentLogOption.NAME, "Also append incident records (JSON lines) to FILE (default: stderr).",
                    DataDirOption.NAME, "Keep incidents in the store under DIR/incidents, for `warden incidents` "
                            + "(default: $WARDEN_DATA_DIR, $XDG_DATA_HOME/warden or ~/.local/share/warden)."));
        }
    }

    @Override
    public Integer call() throws Exception {
        if (System.console() != null && httpPort == null) {
            System.err.println("warden demo: an MCP server speaking JSON-RPC on stdin/stdout. Connect a client, e.g.");
            System.err.println("  npx @modelcontextprotocol/inspector ./warden demo");
            System.err.println("or type a request such as");
            System.err.println("  {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                    + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"me\",\"version\":\"1\"}}}");
        }
        IncidentSink log = serve.incidentLog.file().<IncidentSink>map(JsonLinesIncidentSink::file).orElseGet(IncidentSink::stderr);
        FileIncidentStore store;
        try {
            store = FileIncidentStore.open(serve.dataDir.incidents());
        } catch (RuntimeException e) {
            // Serving matters more than the store: say why on stderr and keep the stderr log.
            System.err.println("warden demo: incidents go to stderr only; cannot open the store: " + e.getMessage());
            serve(log);
            return 0;
        }
        try (store) {
            serve(IncidentSink.all(store, log));
        }
        return 0;
    }

    private void serve(IncidentSink incidents) throws Exception {
        int maxBytes = serve.maxMessageBytes.orDefault();
        McpServer server = conformance ? ConformanceServer.create(incidents, maxBytes)
                : DemoServer.create(incidents, maxBytes);
        if (httpPort == null) {
            server.serveStdio();
            return;
        }
        McpHttpServerBuilder builder = httpLimits.applyTo(McpHttpServer.builder()).port(httpPort)
                .maxBodyBytes(maxBytes).onSession(server::connect).boundary(server.boundary());
        if (auth != null) {
            builder.authenticator(AuthFile.read(auth));
        }
        try (McpHttpServer http = builder.build().start()) {
            // The one line on stdout: scripts wait for it to learn the endpoint (useful with --http 0).
            System.out.println("warden demo: serving " + (conformance ? "the conformance fixture" : "the demo")
                    + " at " + http.endpoint());
            System.out.flush();
            http.join();
        }
    }
}
