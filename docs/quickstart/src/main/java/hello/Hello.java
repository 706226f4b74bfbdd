// doc:hello
package hello;

import dev.warden.server.*;

public class Hello {
    record Greet(@ToolParam(description = "Who to greet") String name) {}
    public static void main(String[] args) throws Exception {
        McpServer.builder("hello", "1.0.0")
                .tool(ToolSpec.of("greet", Greet.class, (greet, context) -> ToolResult.text("Hello, " + greet.name() + "!")))
                .build().serveStdio();
    }
}
// end:hello
