package dev.warden.gateway.internal.upstream;

import dev.warden.client.McpClient;
import dev.warden.core.sanitize.CallerInput;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * A client connection as an upstream link sees it: where the upstream's notifications and
 * questions go. Owned by the upstream side, so an upstream never names the connection class that
 * uses it (which uses everything).
 */
public interface ClientConnection extends Asker {

    /** An upstream's notification (already sanitized where it carries text) on its way to the client. */
    void fromUpstream(UpstreamLink link, String method, JsonNode body, Optional<McpClient> from);

    /** Whether this client connection created that task on that upstream connection (see TaskOwners). */
    boolean created(McpClient upstream, String taskId);

    /** What this client sent in the calls it has in flight on that upstream connection. */
    CallerInput sentDuringCallsOn(McpClient upstream);

    /** Which upstream connection this client may still use (see {@code ClientProfile#sessionAsking()}). */
    Optional<String> sessionAsking();
}
