package orders.desk;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The orders desk, written the way a busy team writes a service: one success and five failures that
 * real servers have (see docs/guides/sdk-comparison.md). Every framework sample calls these methods
 * unchanged, so the only difference between the samples is how each framework reports what is thrown.
 */
public final class OrderDesk {

    private final DeskConfig config;
    private final HttpClient http = HttpClient.newHttpClient();

    public OrderDesk(DeskConfig config) {
        this.config = config;
    }

    /** Creates the table and two orders if they are missing; several samples may share one database. */
    public OrderDesk prepare() {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS orders (id text PRIMARY KEY, customer text NOT NULL,"
                    + " sku text NOT NULL, quantity int NOT NULL, total_cents bigint NOT NULL, discount_code text)");
            s.execute("INSERT INTO orders VALUES ('ord_1001', 'ada@example.com', 'KB-42', 2, 12900, 'SPRING10'),"
                    + " ('ord_1002', 'grace@example.com', 'MS-7', 1, 4900, NULL) ON CONFLICT (id) DO NOTHING");
            return this;
        } catch (SQLException e) {
            throw new IllegalStateException("could not prepare the orders table", e);
        }
    }

    /** The success. */
    public Order order(String orderId) throws SQLException {
        return byId("SELECT id, customer, sku, quantity, total_cents FROM orders WHERE id = ?", orderId,
                r -> new Order(r.getString(1), r.getString(2), r.getString(3), r.getInt(4), r.getLong(5)));
    }

    /** A NullPointerException deep in the code: ord_1002 has no discount code. */
    public long totalAfterDiscount(String orderId) throws SQLException {
        return byId("SELECT total_cents, discount_code FROM orders WHERE id = ?", orderId,
                r -> Pricing.discounted(r.getLong(1), r.getString(2)));
    }

    /** A real SQL error: the column is {@code customer}, the query says {@code customer_email}. */
    public List<String> ordersOf(String customer) throws SQLException {
        try (Connection c = connect(); PreparedStatement q = c.prepareStatement(
                "SELECT id FROM orders WHERE orders.customer_email = ?")) {
            q.setString(1, customer);
            List<String> ids = new ArrayList<>();
            try (ResultSet r = q.executeQuery()) {
                while (r.next()) {
                    ids.add(r.getString(1));
                }
            }
            return ids;
        }
    }

    /** An upstream call whose failure message carries the URL with the server's token in it. */
    public String track(String orderId) {
        URI uri = URI.create(config.carrierBase() + "/v2/track/" + orderId + "?access_token=" + config.carrierToken());
        try {
            return http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            throw new UncheckedIOException("GET " + uri + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while calling " + uri, e);
        }
    }

    /** A file the server reads: a checked IOException whose message is the server's path. */
    public String invoice(String orderId) throws IOException {
        String template = Files.readString(config.templates().resolve("invoice.html"));
        return template.replace("{{order}}", orderId);
    }

    /** A refusal the model must see to fix its call (trusted text). */
    public Order place(String sku, int quantity) {
        if (quantity < 1 || quantity > 100) {
            throw new OrderRejected("quantity must be between 1 and 100, got " + quantity);
        }
        return new Order("ord_new", "caller", sku, quantity, 1990L * quantity);
    }

    private interface Row<T> {
        T read(ResultSet row) throws SQLException;
    }

    private <T> T byId(String query, String orderId, Row<T> row) throws SQLException {
        try (Connection c = connect(); PreparedStatement q = c.prepareStatement(query)) {
            q.setString(1, orderId);
            try (ResultSet r = q.executeQuery()) {
                if (!r.next()) {
                    throw new OrderRejected("no order " + orderId + "; order ids look like ord_1001");
                }
                return row.read(r);
            }
        }
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(config.jdbcUrl(), config.dbUser(), config.dbPassword());
    }
}
