package dev.warden.core.error;

import java.util.Optional;

/**
 * Recognises a throwable that is not a {@link ToolFailure} but still means something the caller can
 * act on (a unique violation from a database driver, say). The failure it returns must carry only
 * trusted text, never the throwable's message.
 */
@FunctionalInterface
public interface FailureClassifier {
    Optional<ToolFailure> classify(Throwable throwable);
}
