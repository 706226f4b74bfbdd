package dev.warden.server.internal;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.NotFoundFailure;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.mcp.Resources;
import dev.warden.core.protocol.Pages;
import dev.warden.core.session.RequestContext;
import dev.warden.server.ResourceReader;
import dev.warden.server.ResourceSpec;
import dev.warden.server.ResourceTemplateSpec;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code resources/list}, {@code resources/templates/list} and {@code resources/read}. */
public final class ResourceRequests {

    private final Catalog catalog;
    private final ConnectedClient client;
    private final List<Resources.Resource> listing;
    private final List<Resources.Template> templateListing;

    public ResourceRequests(Catalog catalog, ConnectedClient client) {
        this.catalog = catalog;
        this.client = client;
        this.listing = catalog.resources().values().stream().map(ResourceSpec::resource).toList();
        this.templateListing = catalog.templates().stream().map(ResourceTemplateSpec::template).toList();
    }

    public JsonNode list(RequestContext context) {
        Pages.Page<Resources.Resource> page = Pages.page(listing,
                Params.optionalString(Params.object(context.params()), Pages.CURSOR), catalog.pageSize());
        return Json.tree(new Resources.ListResult(page.items(), page.nextCursor()));
    }

    public JsonNode templates(RequestContext context) {
        Pages.Page<Resources.Template> page = Pages.page(templateListing,
                Params.optionalString(Params.object(context.params()), Pages.CURSOR), catalog.pageSize());
        return Json.tree(new Resources.TemplatesListResult(page.items(), page.nextCursor()));
    }

    public JsonNode read(RequestContext context) throws Exception {
        ObjectNode params = Params.object(context.params());
        String uri = Params.requiredString(params, "uri");
        ResourceSpec fixed = catalog.resources().get(uri);
        if (fixed != null) {
            return read(context, fixed.reader(), uri, Map.of());
        }
        for (ResourceTemplateSpec template : catalog.templates()) {
            Optional<Map<String, String>> variables = template.matcher().match(uri);
            if (variables.isPresent()) {
                return read(context, template.reader(), uri, variables.get());
            }
        }
        throw notFound(context);
    }

    private JsonNode read(RequestContext context, ResourceReader reader, String uri, Map<String, String> variables)
            throws Exception {
        List<Resources.Contents> contents;
        try {
            contents = reader.read(uri, variables);
        } catch (NotFoundFailure e) {
            throw notFound(context);
        }
        // Anything else propagates to the session's boundary: -32603 with a ref, details to the log.
        return Json.tree(new Resources.ReadResult(contents));
    }

    /** The URI is the caller's input and is not echoed, unlike the spec's example. */
    private ProtocolException notFound(RequestContext context) {
        ProtocolVersion version = client.versionOf(context).orElse(ProtocolVersion.latestSessionBased());
        return new ProtocolException(version.resourceNotFoundCode(), "Resource not found", ErrorCode.NOT_FOUND);
    }
}
