package orders.quarkus;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import orders.desk.DeskConfig;
import orders.desk.OrderDesk;

/** The orders desk as a CDI bean, configured from the environment. */
public class Desk {

    @Produces
    @Singleton
    OrderDesk orderDesk() {
        return new OrderDesk(DeskConfig.fromEnvironment(System.getenv())).prepare();
    }
}
