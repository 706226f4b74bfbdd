package dev.warden.core.shape;

import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * One well-known form in which software reports a failure (JSON:API {@code errors[]}, RFC 9457 problem
 * details, Zod issues…), read into an {@link Extracted}: the violations (pointer and message), the
 * code and the retry hint it carries.
 *
 * <p>This is a service-provider interface: add a shape of your own by implementing it in a public
 * class with a public no-argument constructor and naming that class, one per line, in a resource
 * {@code META-INF/services/dev.warden.core.shape.ErrorShape} on the class path (or {@code provides
 * dev.warden.core.shape.ErrorShape with …} in a module). {@link ErrorShapes#installed()} loads it after
 * the defaults. Build the result with {@link Extracted#builder(String)}, which bounds it and turns
 * paths into safe pointers ({@link Pointers}).
 *
 * <p>An implementation is called on every failing call, at the value and at its usual nestings
 * ({@code error}, {@code data}…): it must be cheap (look at a few named members, stop at the first
 * that does not match), free of reflection and regular expressions, stateless and thread-safe, and
 * must not throw (the registry skips a shape that throws, but that is a bug).
 */
public interface ErrorShape {

    /** A short stable name ({@code jsonapi}, {@code zod}…), unique in a registry; shown in logs. */
    String name();

    /**
     * Reads {@code value} (any JSON value, never null) if it has this shape.
     *
     * @return what was found, or empty if {@code value} is not in this shape or holds nothing useful
     */
    Optional<Extracted> read(JsonNode value);
}
