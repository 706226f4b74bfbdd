package orders.springai.hook;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

/**
 * What the hook hands the original exception to: the seam where Warden's adapter (warden-mcp-sdk)
 * renders its answer (code, ref, incident). The sample's own handler only proves what arrives.
 */
@FunctionalInterface
public interface ToolFailureHandler {

    CallToolResult onFailure(String tool, Throwable original);
}
