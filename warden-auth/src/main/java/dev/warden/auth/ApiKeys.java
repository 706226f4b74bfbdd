package dev.warden.auth;

import dev.warden.auth.KeyDocument.StoredKey;
import dev.warden.core.identity.Caller;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Named API keys with scopes for machine clients, held as SHA-256 digests only. Keys come from a
 * file (reloaded when it changes), an environment variable holding the same document, or both.
 * A key is {@code wdn_} and 32 random bytes in base64url; the digest of 256 random bits needs no
 * salt or slow hash. A presented key is compared with every stored digest, without stopping at a
 * match, so an unknown key and a wrong one cost the same and are refused alike.
 */
public final class ApiKeys {

    static final String ISSUER = "api-key";
    /** An API key's subject is this and its name; a token claiming a subject so spelled is refused. */
    static final String SUBJECT_PREFIX = "key:";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final System.Logger LOG = System.getLogger(ApiKeys.class.getName());

    private final List<StoredKey> fixed;
    private final Optional<KeyFile> file;

    private ApiKeys(List<StoredKey> fixed, Optional<KeyFile> file) {
        this.fixed = List.copyOf(fixed);
        this.file = file;
    }

    /** The keys of {@code file}, reloaded when it changes; problems with a reload are logged. */
    public static ApiKeys fromFile(Path file) {
        return custom().file(file).build();
    }

    /** The keys of the document in the environment variable {@code variable}. */
    public static ApiKeys fromEnv(String variable) {
        return custom().env(variable, System::getenv).build();
    }

    public static Builder custom() {
        return new Builder();
    }

    /** A fresh key: {@code wdn_} and base64url (no padding) of 32 bytes from {@link SecureRandom}. */
    public static String newKey() {
        byte[] raw = new byte[32];
        RANDOM.nextBytes(raw);
        return "wdn_" + Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    }

    /**
     * The keys file's entry for {@code key} (its digest, never the key): one line for the list under
     * {@code keys:}, serialized so that it reads back as exactly this name and these scopes.
     *
     * @throws AuthConfigException naming a scope that RFC 6749's grammar does not allow
     */
    public static String entry(String name, String key, List<String> scopes) {
        return KeyDocument.entry(name, digest(key), scopes);
    }

    /** The lowercase hex SHA-256 of {@code key}'s UTF-8 bytes, as the keys document stores it. */
    public static String digest(String key) {
        return HexFormat.of().formatHex(sha256(key));
    }

    static byte[] sha256(String key) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every JDK has SHA-256", e);
        }
    }

    /**
     * The caller whose key {@code presented} is, looking at the file first if it is due
     * ({@code nowMillis} from the resource server's clock).
     */
    Optional<Caller> match(String presented, long nowMillis) {
        byte[] d = sha256(presented);
        StoredKey found = null;
        for (StoredKey k : fixed) {
            found = MessageDigest.isEqual(k.sha256(), d) && found == null ? k : found;
        }
        if (file.isPresent()) {
            for (StoredKey k : file.get().keys(nowMillis)) {
                found = MessageDigest.isEqual(k.sha256(), d) && found == null ? k : found;
            }
        }
        if (found == null) {
            return Optional.empty();
        }
        return Optional.of(new Caller(SUBJECT_PREFIX + found.name(), Optional.empty(), ISSUER, found.scopes(), Map.of(),
                Caller.Kind.API_KEY, Optional.empty()));
    }

    public static final class Builder {
        private final List<StoredKey> keys = new ArrayList<>();
        private Optional<Path> file = Optional.empty();
        private Consumer<String> problems = message -> LOG.log(System.Logger.Level.WARNING, message);

        private Builder() {
        }

        /** A keys file (YAML or JSON), read at {@link #build()} and again whenever it changes. */
        public Builder file(Path file) {
            this.file = Optional.of(Objects.requireNonNull(file, "file"));
            return this;
        }

        /**
         * The keys document held by the variable {@code variable}, looked up with {@code env};
         * read once (a process's environment does not change).
         */
        public Builder env(String variable, Function<String, String> env) {
            String text = env.apply(variable);
            if (text == null || text.isBlank()) {
                throw new AuthConfigException("the environment variable " + variable + " holding API keys is not set");
            }
            keys.addAll(KeyDocument.parse(text, "the environment variable " + variable));
            return this;
        }

        /** One key by its digest ({@link ApiKeys#digest}). */
        public Builder key(String name, String sha256Hex, Set<String> scopes) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("an API key needs a name");
            }
            keys.add(new StoredKey(name, KeyDocument.digest(
                    tools.jackson.databind.node.JsonNodeFactory.instance.stringNode(sha256Hex), "key " + name),
                    Set.copyOf(scopes.stream().map(s -> KeyDocument.scopeToken(s, "key " + name + " scope")).toList())));
            return this;
        }

        /** Where a reload's problems go (once per change of the file); default: a warning logged. */
        public Builder onProblem(Consumer<String> problems) {
            this.problems = Objects.requireNonNull(problems, "problems");
            return this;
        }

        public ApiKeys build() {
            if (keys.isEmpty() && file.isEmpty()) {
                throw new IllegalArgumentException("API keys need a file, a variable or a key");
            }
            Consumer<String> report = problems;
            return new ApiKeys(keys, file.map(f -> new KeyFile(f, report)));
        }
    }
}
