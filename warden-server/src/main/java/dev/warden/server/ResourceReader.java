package dev.warden.server;

import dev.warden.core.mcp.Resources;
import java.util.List;
import java.util.Map;

/**
 * Reads a resource. {@code variables} holds the URI template's values (empty for a fixed resource).
 * Throw {@link dev.warden.core.error.NotFoundFailure} when the URI matches but nothing is there.
 */
@FunctionalInterface
public interface ResourceReader {
    List<Resources.Contents> read(String uri, Map<String, String> variables) throws Exception;

    /** Reads a resource's body as text ({@link ResourceBuilder#text}). */
    @FunctionalInterface
    interface Text {
        String read(Map<String, String> variables) throws Exception;
    }

    /** Reads a resource's body as bytes ({@link ResourceBuilder#blob}). */
    @FunctionalInterface
    interface Blob {
        byte[] read(Map<String, String> variables) throws Exception;
    }
}
