package dev.warden.bench;

import java.util.Random;

/** Benchmark inputs: realistic mixed error text, benign text, and hostile near-matches per detector. */
final class Inputs {

    private Inputs() {
    }

    static String of(String kind, int size) {
        return switch (kind) {
            case "mixed" -> repeat(size, MIXED);
            case "benign" -> repeat(size, BENIGN);
            case "near-stack" -> repeat(size, "at x (y\n\tat a.b(\nTraceback (most\nFile \"x\", lin\n#0 x\ngoroutine 1 [\n");
            case "near-path" -> repeat(size, "/a/b/c/d/e/f/g/h /usr/x C:\\ \\\\s ~/ file:/ /x.");
            case "near-database" -> repeat(size, "SELECT a b c d e f g h FROM ERROR 12 ORA-1 Msg 1 select x from y does not exist ");
            case "near-secret" -> repeat(size, "password:: token= eyJa.eyJb. -----BEGIN x://a:b sk-x AKIA ghp_ key ");
            case "near-topology" -> repeat(size, "10.0.0. 172.16.1 a.b.c.d.e.f. fe80: ::2 x.local. localhost: ");
            case "near-injection" -> repeat(size, "ignore the you are <sys [in send all the do not tell ");
            default -> throw new IllegalArgumentException(kind);
        };
    }

    private static final String MIXED = String.join("\n",
            "Tool create_invoice failed: org.postgresql.util.PSQLException: ERROR: duplicate key value violates unique constraint \"invoices_number_key\"",
            "  Detail: Key (number)=(INV-2024-0042) already exists.",
            "\tat org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse(QueryExecutorImpl.java:2725)",
            "\tat com.acme.billing.InvoiceRepository.save(InvoiceRepository.java:88)",
            "Connecting to postgres://billing:s3cretPass@db-1.prod.internal:5432/billing with token ghp_0123456789abcdefghijklmnopqrstuvwxyz",
            "FileNotFoundError: [Errno 2] No such file or directory: '/srv/app/config/settings.yaml'",
            "Retry in 30 s. /email: must be a valid email address.",
            "");

    private static final String BENIGN = String.join("\n",
            "The order could not be placed because the item is out of stock. Please choose another size or try again later.",
            "/email: must be a valid email address",
            "| name | status | count |",
            "|------|--------|-------|",
            "| billing | ok | 12 |",
            "Request 2b5e8a34-6f1c-4c8e-9d2a-1f0e4b7c9a10 was received at 2026-11-22T07:12:45Z and queued for processing.",
            "See https://docs.example.com/errors/rate-limits for details; quota exceeded, retry in 30 s.",
            "def total(items):\n    return sum(item.price for item in items)",
            "");

    private static String repeat(int size, String unit) {
        StringBuilder sb = new StringBuilder(size + unit.length());
        Random random = new Random(size);
        while (sb.length() < size) {
            sb.append(unit);
            sb.append(random.nextInt(10));
        }
        sb.setLength(size);
        return sb.toString();
    }
}
