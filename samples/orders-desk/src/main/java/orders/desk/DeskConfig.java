package orders.desk;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where the desk's dependencies are, read from the environment the way a deployed service reads
 * its configuration. The token and the database password are the server's secrets.
 */
public record DeskConfig(String jdbcUrl, String dbUser, String dbPassword, URI carrierBase, String carrierToken,
        Path templates) {

    public static DeskConfig fromEnvironment(Map<String, String> env) {
        return new DeskConfig(required(env, "ORDERS_DB_URL"), required(env, "ORDERS_DB_USER"),
                required(env, "ORDERS_DB_PASSWORD"),
                URI.create(env.getOrDefault("ORDERS_CARRIER_URL", "http://127.0.0.1:9")),
                env.getOrDefault("ORDERS_CARRIER_TOKEN", "tok_live_unset"),
                Path.of(env.getOrDefault("ORDERS_TEMPLATES", "/srv/orders-desk/templates")));
    }

    private static String required(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(name + " is not set");
        }
        return value;
    }
}
