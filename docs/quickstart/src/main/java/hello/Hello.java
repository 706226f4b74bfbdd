package hello;

import dev.warden.server.*;

/** The quick start's whole server: one typed tool, served over stdio. */
public class Hello {
    // doc:hello
    record Greet(@ToolParam(description = "Who to greet") String name) {}

    public static void main(String[] args) throws Exception {
        McpServer.builder("hello", "1.0.0")
                .tool(ToolSpec.of("greet", Greet.class, (greet, context) -> ToolResult.text("Hello, " + greet.name() + "!")))
                .build().serveStdio();
    }
    // end:hello
}
