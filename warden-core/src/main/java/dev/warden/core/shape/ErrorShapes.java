package dev.warden.core.shape;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import tools.jackson.databind.JsonNode;

/**
 * A registry of {@link ErrorShape}s that reads the actionable part of an upstream's error value: the
 * violations (pointer and message), the code and the retry hint.
 *
 * <p>{@link #read(JsonNode)} tries every shape at the value itself and at the members errors are
 * usually nested under ({@code error}, {@code data}, {@code body}, {@code detail}, {@code response},
 * {@code cause}), at most {@value #MAX_NESTING} levels down and {@value #MAX_CANDIDATES} values in all; a
 * member holding JSON as a string (up to {@value #MAX_EMBEDDED_LENGTH} characters) is decoded first. The
 * best extraction wins: the most violations, then one with a code, a retry hint, a message; on a tie the
 * outermost value and the earlier shape. A retry hint seen on the way ({@code retry_after}…) is added to
 * a result that has none.
 *
 * <p><b>The result is untrusted</b> (see {@link Extracted}): sanitize every message before use.
 *
 * <p>Cost: a shape looks at a handful of named members and at most {@value Nodes#MAX_ITEMS} elements
 * per array, so a read is bounded by shapes × candidates × items, whatever the input's size or depth.
 * Immutable and thread-safe.
 */
public final class ErrorShapes {

    public static final int MAX_NESTING = 3;
    public static final int MAX_CANDIDATES = 16;
    public static final int MAX_EMBEDDED_LENGTH = 64 * 1024;

    /** Where errors are wrapped, in the order they are looked into. */
    public static final List<String> NESTING = List.of("error", "data", "body", "detail", "response", "cause");

    private static final ErrorShapes DEFAULTS = builder().addDefaults().build();

    private final List<ErrorShape> shapes;

    private ErrorShapes(List<ErrorShape> shapes) {
        this.shapes = List.copyOf(shapes);
    }

    /**
     * The built-in shapes, in the order they are tried: JSON:API, RFC 9457 problem details, Google API
     * errors, gRPC status, AWS, GraphQL, JSON Schema validators (ajv, jsonschema, networknt), Zod,
     * Pydantic/FastAPI, Joi, Yup, class-validator, and framework HTTP error bodies.
     */
    public static List<ErrorShape> defaults() {
        return List.of(new JsonApiShape(), new ProblemDetailsShape(), new GoogleApiShape(), new GrpcStatusShape(),
                new AwsShape(), new GraphQlShape(), new JsonSchemaShape(), new ZodShape(), new PydanticShape(),
                new JoiShape(), new YupShape(), new ClassValidatorShape(), new HttpStatusShape());
    }

    /** The built-in shapes only. */
    public static ErrorShapes ofDefaults() {
        return DEFAULTS;
    }

    /**
     * The built-in shapes, then every {@link ErrorShape} provider on the class path or module path
     * ({@code META-INF/services/dev.warden.core.shape.ErrorShape}), found with the thread's context class
     * loader.
     *
     * @throws IllegalStateException if a provider cannot be loaded or its name is blank or taken, naming it
     */
    public static ErrorShapes installed() {
        return installed(Thread.currentThread().getContextClassLoader());
    }

    /** As {@link #installed()}, with providers from {@code loader}. */
    public static ErrorShapes installed(ClassLoader loader) {
        Builder builder = builder().addDefaults();
        try {
            for (ErrorShape shape : ServiceLoader.load(ErrorShape.class, loader)) {
                builder.add(shape);
            }
        } catch (ServiceConfigurationError | IllegalArgumentException e) {
            throw new IllegalStateException("cannot load an ErrorShape provider: " + e.getMessage(), e);
        }
        return builder.build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The names of the shapes, in the order they are tried. */
    public List<String> names() {
        return shapes.stream().map(ErrorShape::name).toList();
    }

    /** The best extraction from {@code value} and its usual nestings, or empty if no shape matched. */
    public Optional<Extracted> read(JsonNode value) {
        Objects.requireNonNull(value, "value");
        List<JsonNode> candidates = new ArrayList<>(4);
        candidates.add(value);
        int levelStart = 0;
        for (int level = 0; level < MAX_NESTING && levelStart < candidates.size(); level++) {
            int levelEnd = candidates.size();
            for (int i = levelStart; i < levelEnd; i++) {
                JsonNode c = candidates.get(i);
                if (!c.isObject()) {
                    continue;
                }
                for (String key : NESTING) {
                    if (candidates.size() >= MAX_CANDIDATES) {
                        break;
                    }
                    JsonNode nested = c.get(key);
                    if (nested == null) {
                        continue;
                    }
                    if (nested.isString()) {
                        nested = EmbeddedJson.decode(nested.stringValue(), MAX_EMBEDDED_LENGTH).orElse(null);
                    }
                    if (nested != null && (nested.isObject() || nested.isArray())) {
                        candidates.add(nested);
                    }
                }
            }
            levelStart = levelEnd;
        }
        Extracted best = null;
        Duration hint = null;
        for (JsonNode c : candidates) {
            if (hint == null) {
                hint = RetryHints.of(c).orElse(null);
            }
            for (ErrorShape shape : shapes) {
                Optional<Extracted> found;
                try {
                    found = shape.read(c);
                } catch (RuntimeException e) {
                    continue; // a broken shape must not turn one upstream error into a gateway failure
                }
                if (found != null && found.isPresent() && (best == null || found.get().weight() > best.weight())) {
                    best = found.get();
                }
            }
        }
        if (best != null && hint != null && best.retryAfter().isEmpty()) {
            best = best.withRetryAfter(hint);
        }
        if (best == null && hint != null) {
            // A retry hint alone ({"error": "rate limit exceeded", "retryAfter": 30}) is still what
            // the model needs: how long to wait. The rest of the structure stays in the incident.
            best = new Extracted(RETRY_HINT, Optional.empty(), List.of(), Optional.empty(), Optional.of(hint));
        }
        return Optional.ofNullable(best);
    }

    /** The shape name of an extraction that holds only a retry hint. */
    public static final String RETRY_HINT = "retry-hint";

    /** {@link EmbeddedJson#decode(String) Decodes} {@code text} and reads the value; empty if it is not JSON. */
    public Optional<Extracted> readText(String text) {
        Objects.requireNonNull(text, "text");
        return EmbeddedJson.decode(text).flatMap(this::read);
    }

    /** Collects shapes; {@link #build()} checks them, so a bad registry fails at startup, not per call. */
    public static final class Builder {
        private final List<ErrorShape> shapes = new ArrayList<>();

        private Builder() {
        }

        /**
         * Adds a shape, tried after those already added.
         *
         * @throws IllegalArgumentException if its name is null, blank or already taken (naming both)
         */
        public Builder add(ErrorShape shape) {
            Objects.requireNonNull(shape, "shape");
            String name = shape.name();
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("ErrorShape " + shape.getClass().getName() + " has a blank name");
            }
            for (ErrorShape s : shapes) {
                if (s.name().equals(name)) {
                    throw new IllegalArgumentException("ErrorShape name '" + name + "' of "
                            + shape.getClass().getName() + " is already taken by " + s.getClass().getName());
                }
            }
            shapes.add(shape);
            return this;
        }

        public Builder addDefaults() {
            defaults().forEach(this::add);
            return this;
        }

        /**
         * Removes the shape named {@code name} (to replace a built-in one with your own).
         *
         * @throws IllegalArgumentException if no shape has that name, listing the names there are
         */
        public Builder remove(String name) {
            Objects.requireNonNull(name, "name");
            if (!shapes.removeIf(s -> s.name().equals(name))) {
                throw new IllegalArgumentException("no ErrorShape named '" + name + "'; there are "
                        + shapes.stream().map(ErrorShape::name).toList());
            }
            return this;
        }

        /** @throws IllegalStateException if no shape was added */
        public ErrorShapes build() {
            if (shapes.isEmpty()) {
                throw new IllegalStateException("an ErrorShapes registry needs at least one shape");
            }
            return new ErrorShapes(shapes);
        }
    }
}
