package dev.warden.examples.demo;

import dev.warden.core.error.NotFoundFailure;
import dev.warden.core.error.PermissionDeniedFailure;
import java.util.Map;

/** Documents with an access rule: one is readable, one is confidential, the rest do not exist. */
final class DocumentLibrary {

    private static final Map<String, String> PUBLIC = Map.of(
            "doc-1", "Quarterly report: revenue grew 12% on the year.",
            "doc-3", "Release notes: version 2 adds SSO.");
    private static final Map<String, String> CONFIDENTIAL = Map.of(
            "doc-2", "Board minutes: acquisition of a competitor is planned for March.");

    String read(String id) {
        String text = PUBLIC.get(id);
        if (text != null) {
            return text;
        }
        if (CONFIDENTIAL.containsKey(id)) {
            throw new PermissionDeniedFailure("You do not have access to this document.");
        }
        throw new NotFoundFailure("No document with this id exists.");
    }
}
