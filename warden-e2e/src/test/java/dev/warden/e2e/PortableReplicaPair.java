package dev.warden.e2e;

import dev.warden.testkit.LocalRedis;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;

/**
 * Two {@code warden gateway} replicas with portable sessions (one private key file) and the
 * replicas' bus on one real Redis, in front of server-everything over stdio: what the resumption
 * tests drive the TypeScript SDK against, redirecting its requests from {@link #a} to {@link #b}.
 */
final class PortableReplicaPair implements AutoCloseable {

    final LocalRedis redis;
    final HttpGateway a;
    final HttpGateway b;

    private PortableReplicaPair(LocalRedis redis, HttpGateway a, HttpGateway b) {
        this.redis = redis;
        this.a = a;
        this.b = b;
    }

    static PortableReplicaPair start() throws Exception {
        LocalRedis redis = LocalRedis.start(Path.of("target", "redis-e2e"));
        try {
            String yaml = yaml(keyFile());
            Map<String, String> env = Map.of("WARDEN_TEST_REDIS_PORT", Integer.toString(redis.port()));
            HttpGateway a = HttpGateway.start(yaml, 1, env);
            try {
                return new PortableReplicaPair(redis, a, HttpGateway.start(yaml, 1, env));
            } catch (Exception e) {
                a.stop();
                throw e;
            }
        } catch (Exception e) {
            redis.close();
            throw e;
        }
    }

    private static String yaml(Path keyFile) {
        return """
                http:
                  port: 0
                  sessions: { portable: { keyFile: %s, maxAge: 1h } }
                redis: { url: "redis://127.0.0.1:${WARDEN_TEST_REDIS_PORT}", cluster: e2e-%s }
                upstreams:
                  everything:
                    command: [%s, %s, stdio]
                """.formatted(keyFile, UUID.randomUUID().toString().substring(0, 8), Processes.NODE,
                WardenClientWithServerEverythingTest.SERVER);
    }

    private static Path keyFile() throws Exception {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        Path file = Files.createTempDirectory("warden-portable-pair-e2e").resolve("session-keys");
        Files.writeString(file, "k1 " + Base64.getUrlEncoder().withoutPadding().encodeToString(secret) + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    @Override
    public void close() throws Exception {
        try {
            a.stop();
            b.stop();
        } finally {
            redis.close();
        }
    }
}
