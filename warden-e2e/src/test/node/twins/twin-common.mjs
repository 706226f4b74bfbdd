// What every JavaScript twin shares: the log of what it did (commands run, files read, URLs
// fetched), one JSON line each, which AuditTwinsEndToEndTest reads to prove the audit's canaries
// stayed harmless. Written by the twins for docs/audit-twins.md; not a detection, a record.
import { appendFileSync } from 'node:fs';

export const safe = process.argv.includes('--safe');

export function logAction(work, entry) {
  appendFileSync(`${work}/twin-log.jsonl`, JSON.stringify(entry) + '\n');
}

export const text = (t) => ({ content: [{ type: 'text', text: t }] });
export const failure = (t) => ({ content: [{ type: 'text', text: t }], isError: true });
