package dev.warden.cli;

import dev.warden.core.error.IncidentSink;
import dev.warden.core.error.JsonLinesIncidentSink;
import dev.warden.core.incident.FileIncidentStore;
import dev.warden.core.transport.StdioTransport;
import dev.warden.examples.demo.DemoServer;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code warden demo}: the demo server over stdio. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Runs the demo MCP server over stdio (newline-delimited JSON-RPC on stdin/stdout).",
                "Its tools exercise every failure kind. Incidents go to stderr as JSON lines unless "
                        + "--incident-log is given."})
final class DemoCommand implements Callable<Integer> {

    @Option(names = "--incident-log", paramLabel = "FILE",
            description = "Also append incident records (JSON lines) to FILE (default: stderr).")
    Path incidentLog;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "Keep incidents in the store under DIR/incidents, for `warden incidents` (default: "
                    + "$WARDEN_DATA_DIR, $XDG_DATA_HOME/warden or ~/.local/share/warden).")
    Path dataDir;

    @Option(names = "--max-message-bytes", paramLabel = "BYTES",
            description = "Largest accepted message (default: ${DEFAULT-VALUE}).")
    int maxMessageBytes = StdioTransport.DEFAULT_MAX_MESSAGE_BYTES;

    @Override
    public Integer call() throws Exception {
        if (System.console() != null) {
            System.err.println("warden demo: an MCP server speaking JSON-RPC on stdin/stdout. Connect a client, e.g.");
            System.err.println("  npx @modelcontextprotocol/inspector ./warden demo");
            System.err.println("or type a request such as");
            System.err.println("  {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                    + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"me\",\"version\":\"1\"}}}");
        }
        IncidentSink log = incidentLog == null ? IncidentSink.stderr() : JsonLinesIncidentSink.file(incidentLog);
        FileIncidentStore store;
        try {
            store = FileIncidentStore.open(DataDir.incidents(dataDir));
        } catch (RuntimeException e) {
            // Serving matters more than the store: say why on stderr and keep the stderr log.
            System.err.println("warden demo: incidents go to stderr only; cannot open the store: " + e.getMessage());
            DemoServer.create(log, maxMessageBytes).serveStdio();
            return 0;
        }
        try (store) {
            DemoServer.create(IncidentSink.all(store, log), maxMessageBytes).serveStdio();
        }
        return 0;
    }
}
