package dev.warden.http.server.internal.request;

import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The server's {@code Admission}, as functions, so that this package does not depend on the API
 * package: whether a new request may start, that one admitted has ended, and the failing readiness checks.
 */
public record Gate(BooleanSupplier enter, Runnable exit, Supplier<List<String>> unready) {
}
