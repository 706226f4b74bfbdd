package dev.warden.core.sanitize;

import java.util.List;

/**
 * A built-in detector that reads the text's shared {@link Words} instead of walking it again. Given
 * only the text (as any {@link Detector}), it indexes the words itself.
 */
interface WordScanner extends Detector {

    void scan(Words words, List<Finding> out);

    @Override
    default void scan(String text, List<Finding> out) {
        scan(Words.of(text), out);
    }
}
