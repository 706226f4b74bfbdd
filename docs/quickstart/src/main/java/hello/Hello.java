package hello;

import dev.warden.server.McpServer;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;

/** The quick start's whole server: one tool, served over stdio. */
public class Hello {
    public static void main(String[] args) throws Exception {
        // doc:hello
        McpServer.builder("hello", "1.0.0")
                .tool(ToolSpec.builder("greet")
                        .description("Greets someone by name")
                        .inputSchema("""
                                {"type":"object","properties":{"name":{"type":"string","minLength":1}},
                                 "required":["name"]}""")
                        .handler(call -> ToolResult.text("Hello, " + call.string("name").orElseThrow() + "!"))
                        .build())
                .build().serveStdio();
        // end:hello
    }
}
