package orders.springai;

import orders.desk.DeskConfig;
import orders.desk.OrderDesk;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/** The orders server on Spring AI's MCP server starter (Streamable HTTP at /mcp). */
@SpringBootApplication
public class OrdersApplication {

    public static void main(String[] args) {
        SpringApplication.run(OrdersApplication.class, args);
    }

    @Bean
    OrderDesk orderDesk() {
        return new OrderDesk(DeskConfig.fromEnvironment(System.getenv())).prepare();
    }
}
