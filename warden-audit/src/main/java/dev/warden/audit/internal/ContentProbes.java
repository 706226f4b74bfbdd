package dev.warden.audit.internal;

import dev.warden.core.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads of what the model is given besides tool results, to see what it says: {@code resources/read}
 * of each listed resource and of each template with its variables filled ({@link BaselineValues}
 * from the template's description, else the marker), {@code prompts/get} of each prompt with its
 * arguments filled likewise. Reading changes nothing (the spec has no side effects for either).
 * Bounded: the first {@link #MAX_READS} resources, templates and prompts of each list.
 */
public final class ContentProbes {

    static final int MAX_READS = 10;
    private static final int MAX_TEMPLATE_CHARS = 1024;

    private final String marker;

    public ContentProbes(String marker) {
        this.marker = marker;
    }

    public List<Probe> of(List<JsonNode> resources, List<JsonNode> templates, List<JsonNode> prompts) {
        List<Probe> probes = new ArrayList<>();
        resources.stream().limit(MAX_READS).forEach(r -> {
            String uri = r.path("uri").asString("");
            if (!uri.isEmpty()) {
                probes.add(read(uri, "the listed resource"));
            }
        });
        templates.stream().limit(MAX_READS).forEach(t -> expand(t).ifPresent(uri ->
                probes.add(read(uri, "template " + t.path("uriTemplate").asString("") + " with baseline values"))));
        prompts.stream().limit(MAX_READS).forEach(p -> {
            String name = p.path("name").asString("");
            if (!name.isEmpty()) {
                ObjectNode params = Json.object();
                params.put("name", name);
                ObjectNode args = params.putObject("arguments");
                for (JsonNode a : p.path("arguments")) {
                    String arg = a.path("name").asString("");
                    if (!arg.isEmpty()) {
                        args.put(arg, text(a.path("description").asString(""), arg, p.path("description").asString("")));
                    }
                }
                probes.add(new Probe(Probe.Kind.VALID, "prompts/get", Optional.of(name), "the prompt with baseline arguments",
                        params));
            }
        });
        return probes;
    }

    private Probe read(String uri, String what) {
        ObjectNode params = Json.object();
        params.put("uri", uri);
        return new Probe(Probe.Kind.VALID, "resources/read", Optional.of(uri), what, params);
    }

    /** The template's URI with each {@code {var}} (any RFC 6570 operator dropped) filled in. */
    Optional<String> expand(JsonNode template) {
        String t = template.path("uriTemplate").asString("");
        if (t.isEmpty() || t.length() > MAX_TEMPLATE_CHARS) {
            return Optional.empty();
        }
        String description = template.path("description").asString("");
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < t.length()) {
            int open = t.indexOf('{', i);
            int close = open < 0 ? -1 : t.indexOf('}', open);
            if (close < 0) {
                out.append(t, i, t.length());
                break;
            }
            out.append(t, i, open);
            String variable = t.substring(open + 1, close);
            if (!variable.isEmpty() && "+#./;?&".indexOf(variable.charAt(0)) >= 0) {
                variable = variable.substring(1);
            }
            int comma = variable.indexOf(',');
            String name = comma < 0 ? variable : variable.substring(0, comma);
            out.append(java.net.URLEncoder.encode(text("", name, description), java.nio.charset.StandardCharsets.UTF_8)
                    .replace("+", "%20"));
            i = close + 1;
        }
        return Optional.of(out.toString());
    }

    /** A value the description lists for {@code name}, else the marker. */
    private String text(String ownDescription, String name, String outerDescription) {
        JsonNode schema = Json.object().put("type", "string").put("description", ownDescription);
        return BaselineValues.of(schema, name, outerDescription, false).map(JsonNode::asString).orElse(marker);
    }
}
