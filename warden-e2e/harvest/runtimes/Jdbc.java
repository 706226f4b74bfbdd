import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/** Runs the caller's SQL with the PostgreSQL JDBC driver on the server's configured database; prints the exception's stack trace. */
public class Jdbc {
    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection(System.getenv("PG_JDBC_URL"), System.getenv("PG_USER"),
                System.getenv(args.length > 1 ? "PG_BAD_PASSWORD" : "PG_PASSWORD"))) {
            c.createStatement().execute(args[0]);
        } catch (SQLException e) {
            if (System.getenv("GET_MESSAGE") != null) {
                System.out.print(e.getMessage());
            } else {
                e.printStackTrace();
            }
            System.exit(1);
        }
    }
}
