package dev.warden.core.sanitize.detection;

import dev.warden.core.sanitize.detection.Category;
import dev.warden.core.sanitize.detection.Finding;
import java.util.List;

/**
 * Finds one category of sensitive content. Implementations run in time linear in the text: they
 * are hand-written scanners or RE2/J, never a backtracking regular expression.
 */
public interface Detector {

    Category category();

    /** Adds the findings in {@code text} to {@code out}. Must not throw on any input. */
    void scan(String text, List<Finding> out);
}
