package dev.warden.console.feed;

import dev.warden.gateway.auditlog.AuditRecord;
import dev.warden.gateway.auditlog.AuditSink;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The last records of the audit log, as the gateway made them, in memory: what the console shows
 * as the log's tail without reading the store. Bounded; never throws.
 */
public final class AuditTail implements AuditSink {

    public static final int DEFAULT_SIZE = 200;

    private final int size;
    private final ArrayDeque<AuditRecord> records;

    public AuditTail(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("size must be at least 1, got " + size);
        }
        this.size = size;
        this.records = new ArrayDeque<>(size);
    }

    public AuditTail() {
        this(DEFAULT_SIZE);
    }

    @Override
    public synchronized void record(AuditRecord r) {
        if (records.size() == size) {
            records.removeFirst();
        }
        records.addLast(r);
    }

    /** The records kept, newest first. */
    public synchronized List<AuditRecord> newestFirst() {
        List<AuditRecord> out = new ArrayList<>(records.size());
        for (Iterator<AuditRecord> i = records.descendingIterator(); i.hasNext(); ) {
            out.add(i.next());
        }
        return out;
    }
}
