package dev.warden.server.internal;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import dev.warden.core.mcp.Prompts;
import dev.warden.core.protocol.Pages;
import dev.warden.core.session.RequestContext;
import dev.warden.server.PromptSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code prompts/list} and {@code prompts/get}. */
public final class PromptRequests {

    private final Catalog catalog;
    private final ConnectedClient client;
    private final RequestStates states;
    private final List<Prompts.Prompt> listing;

    public PromptRequests(Catalog catalog, ConnectedClient client, RequestStates states) {
        this.catalog = catalog;
        this.client = client;
        this.states = states;
        this.listing = catalog.prompts().values().stream().map(PromptSpec::prompt).toList();
    }

    public JsonNode list(RequestContext context) {
        Pages.Page<Prompts.Prompt> page = Pages.page(listing,
                Params.optionalString(Params.object(context.params()), Pages.CURSOR), catalog.pageSize());
        return Json.tree(new Prompts.ListResult(page.items(), page.nextCursor()));
    }

    public JsonNode get(RequestContext context) throws Exception {
        ObjectNode params = Params.object(context.params());
        String name = Params.requiredString(params, "name");
        PromptSpec spec = catalog.prompts().get(name);
        if (spec == null) {
            throw ProtocolException.unknown("Unknown prompt");
        }
        Map<String, String> arguments = new LinkedHashMap<>();
        Optional<ObjectNode> given = Params.optionalObject(params, "arguments");
        if (given.isPresent()) {
            for (Map.Entry<String, JsonNode> entry : given.get().properties()) {
                if (!entry.getValue().isString()) {
                    throw ProtocolException.invalidParams("Invalid params: prompt arguments must be strings");
                }
                arguments.put(entry.getKey(), entry.getValue().stringValue());
            }
        }
        for (Prompts.Argument argument : spec.prompt().arguments()) {
            if (argument.required() && !arguments.containsKey(argument.name())) {
                // The argument name comes from the prompt's definition, so it is trusted.
                throw ProtocolException.invalidParams("Invalid params: missing required argument " + argument.name());
            }
        }
        InputRound round = new InputRound(context, client, states, Prompts.GET, name, params);
        try {
            return Json.tree(spec.handler().get(Map.copyOf(arguments), round));
        } catch (InputRequired asked) {
            return round.inputRequired(asked);
        }
    }
}
