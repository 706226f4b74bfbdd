package dev.warden.core.shape;

import dev.warden.core.error.ErrorCode;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/** A user shape, installed through META-INF/services in the test resources. */
public final class TestTeapotShape implements ErrorShape {

    /** Found by {@link java.util.ServiceLoader}, which needs a public constructor. */
    public TestTeapotShape() {
    }

    @Override
    public String name() {
        return "test-teapot";
    }

    @Override
    public Optional<Extracted> read(JsonNode value) {
        return value.has("teapot")
                ? Extracted.builder(name()).code(ErrorCode.CONFLICT).message("I'm a teapot").build()
                : Optional.empty();
    }
}
