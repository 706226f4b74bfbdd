package dev.warden.server;

import dev.warden.core.mcp.Resources;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * What a fixed resource's builder and a template's share: the names shown to the client, the
 * MIME type, and how the body is read (text, bytes, or contents of your own).
 *
 * @param <B> the builder itself, so each setter returns it
 */
public abstract sealed class ResourceBuilder<B extends ResourceBuilder<B>>
        permits ResourceSpec.Builder, ResourceTemplateSpec.Builder {

    final String address;
    String name;
    Optional<String> title = Optional.empty();
    Optional<String> description = Optional.empty();
    Optional<String> mimeType = Optional.empty();
    /** The reader, made at build time from the MIME type then set. */
    private Optional<Function<Optional<String>, ResourceReader>> reader = Optional.empty();

    ResourceBuilder(String address) {
        this.address = Objects.requireNonNull(address, "uri");
        this.name = address;
    }

    abstract B self();

    /** The name a client lists it under; the URI (or URI template) when not set. */
    public B name(String name) {
        this.name = Objects.requireNonNull(name, "name");
        return self();
    }

    public B title(String title) {
        this.title = Optional.of(title);
        return self();
    }

    public B description(String description) {
        this.description = Optional.of(description);
        return self();
    }

    /** The MIME type listed, and given to the contents {@link #text} and {@link #blob} read. */
    public B mimeType(String mimeType) {
        this.mimeType = Optional.of(mimeType);
        return self();
    }

    /** Reads the contents yourself: several parts, or a MIME type per part. */
    public B reader(ResourceReader reader) {
        Objects.requireNonNull(reader, "reader");
        this.reader = Optional.of(type -> reader);
        return self();
    }

    /** The body is the text this returns, one part at the URI read, with the builder's MIME type. */
    public B text(ResourceReader.Text text) {
        Objects.requireNonNull(text, "text");
        this.reader = Optional.of(type -> (uri, variables) ->
                List.of(new Resources.TextContents(uri, type, text.read(variables))));
        return self();
    }

    /** The body is the bytes this returns, sent base64-encoded, with the builder's MIME type. */
    public B blob(ResourceReader.Blob blob) {
        Objects.requireNonNull(blob, "blob");
        this.reader = Optional.of(type -> (uri, variables) -> List.of(new Resources.BlobContents(uri, type,
                Base64.getEncoder().encodeToString(blob.read(variables)))));
        return self();
    }

    ResourceReader reader() {
        return reader.orElseThrow(() -> new IllegalStateException(
                "resource " + address + " has no reader: call text, blob or reader")).apply(mimeType);
    }
}
