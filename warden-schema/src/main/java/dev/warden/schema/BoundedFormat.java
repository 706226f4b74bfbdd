package dev.warden.schema;

import com.networknt.schema.ExecutionContext;
import com.networknt.schema.MessageSourceError;
import com.networknt.schema.SchemaContext;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.format.Format;
import com.networknt.schema.keyword.FormatValidator;
import com.networknt.schema.path.NodePath;
import java.util.Map;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;

/**
 * A {@code format} check that refuses values longer than the format can ever be before running
 * the library's check. Several of those checks are java.util.regex patterns that recurse once per
 * character: a 2,000-character "uri-template" overflows the stack, and long e-mail or host-name
 * values cost time for nothing. Argument values are untrusted, so the length is bounded first.
 */
final class BoundedFormat implements Format {

    /** Longest value worth checking, by format; anything longer is not a valid value of it. */
    private static final Map<String, Integer> MAX_LENGTH = Map.ofEntries(
            Map.entry("email", 320), Map.entry("idn-email", 320),
            Map.entry("hostname", 253), Map.entry("idn-hostname", 253),
            Map.entry("ipv4", 15), Map.entry("ipv6", 45),
            Map.entry("date", 32), Map.entry("time", 64), Map.entry("date-time", 64), Map.entry("duration", 64),
            Map.entry("uuid", 36), Map.entry("uri-template", 256), Map.entry("regex", 1024));
    private static final int DEFAULT_MAX_LENGTH = 2048;

    private final Format delegate;
    private final int maxLength;

    private BoundedFormat(Format delegate) {
        this.delegate = delegate;
        this.maxLength = MAX_LENGTH.getOrDefault(delegate.getName(), DEFAULT_MAX_LENGTH);
    }

    /** The dialect with every format bounded. */
    static Dialect apply(Dialect dialect) {
        return Dialect.builder(dialect).formats(formats -> formats.replaceAll((name, format) ->
                format instanceof BoundedFormat ? format : new BoundedFormat(format))).build();
    }

    private boolean tooLong(JsonNode node) {
        return node != null && node.isString() && node.stringValue().length() > maxLength;
    }

    @Override
    public String getName() {
        return delegate.getName();
    }

    @Override
    public String getMessageKey() {
        return delegate.getMessageKey();
    }

    @Override
    public boolean matches(ExecutionContext executionContext, String value) {
        return value.length() <= maxLength && delegate.matches(executionContext, value);
    }

    @Override
    public boolean matches(ExecutionContext executionContext, SchemaContext schemaContext, String value) {
        return value.length() <= maxLength && delegate.matches(executionContext, schemaContext, value);
    }

    @Override
    public boolean matches(ExecutionContext executionContext, SchemaContext schemaContext, JsonNode value) {
        return !tooLong(value) && delegate.matches(executionContext, schemaContext, value);
    }

    @Override
    public boolean matches(ExecutionContext executionContext, SchemaContext schemaContext, JsonNode node,
                           JsonNode rootNode, NodePath instanceLocation, boolean assertionsEnabled,
                           FormatValidator formatValidator) {
        return !tooLong(node) && delegate.matches(executionContext, schemaContext, node, rootNode, instanceLocation,
                assertionsEnabled, formatValidator);
    }

    @Override
    public void validate(ExecutionContext executionContext, SchemaContext schemaContext, JsonNode node,
                         JsonNode rootNode, NodePath instanceLocation, boolean assertionsEnabled,
                         Supplier<MessageSourceError.Builder> message, FormatValidator formatValidator) {
        if (tooLong(node)) {
            if (assertionsEnabled) {
                // The value is not repeated into the error: it is the caller's input.
                executionContext.addError(message.get().arguments(getName(), "").build());
            }
            return;
        }
        delegate.validate(executionContext, schemaContext, node, rootNode, instanceLocation, assertionsEnabled,
                message, formatValidator);
    }
}
