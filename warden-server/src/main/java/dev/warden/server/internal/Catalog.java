package dev.warden.server.internal;

import dev.warden.core.json.Json;
import dev.warden.core.mcp.Implementation;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.server.PromptSpec;
import dev.warden.server.ResourceSpec;
import dev.warden.server.ResourceTemplateSpec;
import dev.warden.server.ToolSpec;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a server offers, fixed when it is built: the request handlers of every connection read it
 * here rather than reaching back into {@code McpServer}, which keeps these accessors out of the
 * public API.
 *
 * @param completions whether the server answers {@code completion/complete}
 * @param resourceSubscriptions whether clients may subscribe to resources
 */
public record Catalog(Implementation info, Optional<String> instructions, Map<String, ToolSpec> tools,
        Map<String, ResourceSpec> resources, List<ResourceTemplateSpec> templates, Map<String, PromptSpec> prompts,
        int pageSize, boolean completions, boolean resourceSubscriptions) {

    public Catalog {
        // Copies that keep the registration order: listings page through them in that order.
        tools = Collections.unmodifiableMap(new LinkedHashMap<>(tools));
        resources = Collections.unmodifiableMap(new LinkedHashMap<>(resources));
        templates = List.copyOf(templates);
        prompts = Collections.unmodifiableMap(new LinkedHashMap<>(prompts));
    }

    /** The capabilities announced at initialize and by {@code server/discover}. */
    public Lifecycle.ServerCapabilities capabilities() {
        return new Lifecycle.ServerCapabilities(
                tools.isEmpty() ? Optional.empty() : Optional.of(new Lifecycle.ListChanged(false)),
                resources.isEmpty() && templates.isEmpty() ? Optional.empty()
                        : Optional.of(new Lifecycle.ResourcesCapability(resourceSubscriptions, false)),
                prompts.isEmpty() ? Optional.empty() : Optional.of(new Lifecycle.ListChanged(false)),
                Optional.of(Json.object()),
                completions ? Optional.of(Json.object()) : Optional.empty(),
                Optional.empty());
    }
}
