package dev.warden.adapter.springai.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

/**
 * The order shop behind the sample's tools, written the way a busy team writes one: a success and
 * the failures real servers have (a NullPointerException deep in the code, database errors that
 * name tables, columns and constraints, an upstream URL with its token, a path on the server). No
 * Warden and no Spring AI in it.
 */
public final class Shop {

    /** The billing service's key, as a real HTTP client puts the URL it failed on in its message. */
    public static final String UPSTREAM_TOKEN = "sk_live_51HqLyjWDarjtT1zdp7dcXhGkTq";
    public static final String UPSTREAM_HOST = "billing.internal.example";

    private final String jdbcUrl;
    private final Path reports;

    public Shop(String jdbcUrl, Path reports) {
        this.jdbcUrl = jdbcUrl;
        this.reports = reports;
        try (Connection c = connect()) {
            c.createStatement().execute("CREATE TABLE IF NOT EXISTS shop_orders "
                    + "(id integer PRIMARY KEY, total_cents integer NOT NULL)");
            c.createStatement().execute("MERGE INTO shop_orders KEY (id) VALUES (1, 4200)");
        } catch (SQLException e) {
            throw new IllegalStateException("could not prepare the orders table", e);
        }
    }

    public String carrierOf(int order) {
        return new Shipments().shipment(order).carrier();
    }

    public void insert(int id, int cents) throws SQLException {
        try (Connection c = connect();
             PreparedStatement insert = c.prepareStatement("INSERT INTO shop_orders (id, total_cents) VALUES (?, ?)")) {
            insert.setInt(1, id);
            insert.setInt(2, cents);
            insert.executeUpdate();
        }
    }

    public int total(int id) throws SQLException {
        // A typo no test hit: the column is total_cents.
        try (Connection c = connect();
             PreparedStatement select = c.prepareStatement("SELECT totl_cents FROM shop_orders WHERE id = ?")) {
            select.setInt(1, id);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? rows.getInt(1) : 0;
            }
        }
    }

    public int storedTotal(int id) throws SQLException {
        try (Connection c = connect();
             PreparedStatement select = c.prepareStatement("SELECT total_cents FROM shop_orders WHERE id = ?")) {
            select.setInt(1, id);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? rows.getInt(1) : 0;
            }
        }
    }

    public String invoice(int id) {
        String url = "https://" + UPSTREAM_HOST + ":8443/v1/invoices/" + id + "?api_key=" + UPSTREAM_TOKEN;
        throw new UncheckedIOException(new IOException(
                "I/O error on GET request for \"" + url + "\": Connection refused",
                new ConnectException("Connection refused")));
    }

    public String report(String name) throws IOException {
        return Files.readString(reports.resolve(name));
    }

    public Path reports() {
        return reports;
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl);
    }

    /** Where shipments are looked up; order 7 has none yet, which nobody expected. */
    static final class Shipments {
        record Shipment(String carrier) {
        }

        private final Map<Integer, Shipment> byOrder = Map.of(1, new Shipment("DHL"));

        Shipment shipment(int order) {
            return byOrder.get(order);
        }
    }
}
