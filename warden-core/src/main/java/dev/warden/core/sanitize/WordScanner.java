package dev.warden.core.sanitize;

import java.util.List;

/** A built-in detector that reads the text's shared {@link Words} instead of walking it again. */
interface WordScanner {

    void scan(Words words, List<Finding> out);
}
