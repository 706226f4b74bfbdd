package invoicing;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.stereotype.Component;

/** Customers and invoices, in memory; errors are thrown the way a Spring service throws them. */
@Component
public class Ledger {

    public enum Currency { EUR, USD, GBP }

    public enum Status { OPEN, PAID, VOID }

    public record Customer(String id, String name, long creditLimitCents) {
    }

    public record Invoice(String id, String customerId, long amountCents, Currency currency, Status status) {
    }

    private final Map<String, Customer> customers = new LinkedHashMap<>();
    private final Map<String, Invoice> invoices = new LinkedHashMap<>();
    private final AtomicInteger next = new AtomicInteger(5003);

    public Ledger() {
        customers.put("cus_2001", new Customer("cus_2001", "Initech GmbH", 500_000));
        customers.put("cus_2002", new Customer("cus_2002", "Globex Ltd", 50_000));
        invoices.put("inv_5001", new Invoice("inv_5001", "cus_2001", 125_000, Currency.EUR, Status.OPEN));
        invoices.put("inv_5002", new Invoice("inv_5002", "cus_2002", 48_000, Currency.GBP, Status.PAID));
    }

    public synchronized Invoice create(String customerId, long amountCents, Currency currency) {
        requireFormat("customer_id", customerId, "cus_");
        if (amountCents <= 0) {
            throw new IllegalArgumentException("amount_cents must be positive, got " + amountCents);
        }
        Customer c = customers.get(customerId);
        if (c == null) {
            throw new NoSuchElementException("Customer " + customerId + " not found");
        }
        if (amountCents > c.creditLimitCents()) {
            throw new IllegalStateException("Amount " + amountCents + " exceeds the credit limit of " + customerId);
        }
        Invoice i = new Invoice("inv_" + next.getAndIncrement(), customerId, amountCents, currency, Status.OPEN);
        invoices.put(i.id(), i);
        return i;
    }

    public synchronized Invoice find(String invoiceId) {
        requireFormat("invoice_id", invoiceId, "inv_");
        Invoice i = invoices.get(invoiceId);
        if (i == null) {
            throw new NoSuchElementException("Invoice " + invoiceId + " not found");
        }
        return i;
    }

    public synchronized Invoice voidInvoice(String invoiceId) {
        Invoice i = find(invoiceId);
        if (i.status() == Status.PAID) {
            throw new IllegalStateException("Invoice " + invoiceId + " is paid and cannot be voided; issue a credit note");
        }
        Invoice voided = new Invoice(i.id(), i.customerId(), i.amountCents(), i.currency(), Status.VOID);
        invoices.put(i.id(), voided);
        return voided;
    }

    private static void requireFormat(String field, String value, String prefix) {
        if (value == null || !value.matches(prefix + "[0-9]{1,12}")) {
            throw new IllegalArgumentException(field + " must look like " + prefix + "123, got '" + value + "'");
        }
    }
}
