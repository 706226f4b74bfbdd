package dev.warden.core.sanitize.scan;

import dev.warden.core.sanitize.detection.Detector;
import dev.warden.core.sanitize.detection.Finding;
import java.util.List;
import java.util.Map;

/**
 * A built-in detector that reads the text's shared {@link Words} instead of walking it again. Given
 * only the text (as any {@link Detector}), it indexes the words itself.
 */
public interface WordScanner extends Detector {

    void scan(Words words, List<Finding> out);

    /** The words this scanner classifies, with their class bits; empty when it reads none. */
    Map<String, Integer> wordClasses();

    @Override
    default void scan(String text, List<Finding> out) {
        scan(Words.of(text, WordTable.merged(wordClasses())), out);
    }
}
