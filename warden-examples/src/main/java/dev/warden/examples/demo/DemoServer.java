package dev.warden.examples.demo;

import dev.warden.core.incident.IncidentSink;
import dev.warden.core.mcp.Content;
import dev.warden.core.mcp.Prompts;
import dev.warden.core.mcp.Resources;
import dev.warden.server.McpServer;
import dev.warden.server.PromptSpec;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The server behind {@code warden demo}: a small user directory whose tools exercise every failure
 * kind, so that a client can see what Warden sends for each.
 */
public final class DemoServer {

    private DemoServer() {
    }

    public static McpServer create(IncidentSink incidents, int maxMessageBytes) {
        UserDirectory directory = UserDirectory.open();
        DocumentLibrary documents = new DocumentLibrary();
        return McpServer.builder("warden-demo", DemoServer.class.getPackage().getImplementationVersion() == null
                        ? "dev" : DemoServer.class.getPackage().getImplementationVersion())
                .title("Warden demo")
                .instructions("A demo user directory. Every tool shows one way a call can fail; "
                        + "failures carry a code, a retryable flag and a ref.")
                .incidents(incidents)
                .maxMessageBytes(maxMessageBytes)
                .tool(DemoTools.createUser(directory))
                .tool(DemoTools.fetchDocument(documents))
                .tool(DemoTools.searchCatalog(new FixedWindowLimiter(2, java.time.Duration.ofMinutes(1))))
                .tool(DemoTools.login(directory))
                .tool(DemoTools.generateReport())
                .tool(DemoTools.longTask())
                .resource(new Resources.Resource("docs://readme", "readme", Optional.of("About this demo"),
                                Optional.of("What the demo server is for"), Optional.of("text/plain"),
                                OptionalLong.empty()),
                        (uri, vars) -> List.of(new Resources.TextContents(uri, Optional.of("text/plain"),
                                "This server demonstrates Warden's safe errors.")))
                .resourceTemplate(new Resources.Template("docs://documents/{id}", "document",
                                Optional.of("A document by id"), Optional.empty(), Optional.of("text/plain")),
                        (uri, vars) -> List.of(new Resources.TextContents(uri, Optional.of("text/plain"),
                                documents.read(vars.get("id")))))
                .prompt(new PromptSpec(new Prompts.Prompt("summarize_document", Optional.of("Summarize a document"),
                        Optional.of("Asks the model to summarize one document"),
                        List.of(new Prompts.Argument("id", Optional.of("The document id, e.g. doc-1"), true))),
                        args -> new Prompts.GetResult(Optional.of("Summarize a document"), List.of(
                                new Prompts.Message(Prompts.Role.USER, Content.text(
                                        "Summarize the document " + args.get("id") + " in three sentences."))))))
                .build();
    }
}
