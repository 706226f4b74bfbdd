package dev.warden.core.mcp;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import tools.jackson.databind.node.ObjectNode;

/** Records of argument completion ({@code completion/complete}). */
public final class Completion {

    public static final String COMPLETE = "completion/complete";
    /** The spec caps a completion response at 100 values. */
    public static final int MAX_VALUES = 100;

    private Completion() {
    }

    /** {@code ref} is a prompt ({@code ref/prompt}, name) or a resource template ({@code ref/resource}, uri). */
    public record CompleteParams(ObjectNode ref, ArgumentValue argument, Optional<ObjectNode> context) {
        public CompleteParams {
            Objects.requireNonNull(ref, "ref");
            Objects.requireNonNull(argument, "argument");
            context = Objects.requireNonNullElse(context, Optional.empty());
        }
    }

    public record ArgumentValue(String name, String value) {
        public ArgumentValue {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
        }
    }

    public record CompleteResult(Values completion) {
        public CompleteResult {
            Objects.requireNonNull(completion, "completion");
        }
    }

    public record Values(List<String> values, OptionalInt total, boolean hasMore) {
        public Values {
            values = List.copyOf(values);
            if (values.size() > MAX_VALUES) {
                throw new IllegalArgumentException("at most " + MAX_VALUES + " values, got " + values.size());
            }
            total = Objects.requireNonNullElse(total, OptionalInt.empty());
        }
    }

    /** Context values already chosen for other arguments, by name. */
    public static Map<String, String> contextArguments(CompleteParams params) {
        return params.context().map(c -> c.get("arguments")).filter(a -> a != null && a.isObject())
                .map(a -> {
                    java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
                    a.properties().forEach(e -> out.put(e.getKey(), e.getValue().asString()));
                    return Map.copyOf(out);
                }).orElse(Map.of());
    }
}
