package invoicing;

import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.ai.mcp.annotation.McpToolParam;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;
import org.springframework.web.client.RestClient;

/** The MCP tools, as @McpTool methods: the starter derives their schemas from the parameters. */
@Service
public class InvoiceTools {

    private final Ledger ledger;
    private final RestClient fx;
    private final RestClient mailer;
    private final String fxKey;

    public InvoiceTools(Ledger ledger, @Value("${fx.api.base}") String fxBase, @Value("${fx.api.key}") String fxKey,
            @Value("${mailer.api.base}") String mailerBase) {
        this.ledger = ledger;
        this.fx = RestClient.builder().baseUrl(fxBase).build();
        this.mailer = RestClient.builder().baseUrl(mailerBase).build();
        this.fxKey = fxKey;
    }

    @McpTool(name = "create_invoice", description = "Create an open invoice for a customer (customer_id like cus_123).")
    public Ledger.Invoice createInvoice(
            @McpToolParam(description = "customer id, e.g. cus_2001") String customer_id,
            @McpToolParam(description = "amount in cents, positive") long amount_cents,
            @McpToolParam(description = "ISO currency") Ledger.Currency currency) {
        return ledger.create(customer_id, amount_cents, currency);
    }

    @McpTool(name = "get_invoice", description = "Fetch an invoice by id (inv_ followed by digits).")
    public Ledger.Invoice getInvoice(@McpToolParam(description = "invoice id, e.g. inv_5001") String invoice_id) {
        return ledger.find(invoice_id);
    }

    @McpTool(name = "void_invoice", description = "Void an open invoice.")
    public Ledger.Invoice voidInvoice(@McpToolParam(description = "invoice id") String invoice_id) {
        return ledger.voidInvoice(invoice_id);
    }

    @McpTool(name = "convert_total", description = "Convert an invoice total with today's FX rate.")
    public String convertTotal(@McpToolParam(description = "invoice id") String invoice_id,
            @McpToolParam(description = "target currency") Ledger.Currency target) {
        Ledger.Invoice i = ledger.find(invoice_id);
        String rate = fx.get().uri("/v1/rates/{from}/{to}?access_key={key}", i.currency(), target, fxKey)
                .retrieve().body(String.class);
        return "rate " + i.currency() + "->" + target + ": " + rate;
    }

    @McpTool(name = "send_invoice", description = "Email the invoice to the customer's billing contact.")
    public String sendInvoice(@McpToolParam(description = "invoice id") String invoice_id) {
        Ledger.Invoice i = ledger.find(invoice_id);
        return mailer.post().uri("/v3/mail/send").body("{\"invoice\":\"" + i.id() + "\"}")
                .retrieve().body(String.class);
    }
}
