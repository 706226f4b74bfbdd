// The judging rules of RULES.md as code: a failure on three axes (leak, code, fix kept), an ordinary
// step on identity with its direct answer (after the normalising RULES.md allows).
import { failed, textOf, wardenError } from './session.mjs';

/** The outcome as JSON text, with what the server itself varies between runs (its "vary" patterns) masked. */
export function normalised(outcome, vary) {
  let text = JSON.stringify(outcome);
  for (const pattern of vary ?? []) text = text.replace(new RegExp(pattern, 'g'), '<varies>');
  return text;
}

export function judgeOrdinary(step, direct, wrapped, vary) {
  const premise = !failed(direct.outcome);
  const identical = normalised(direct.outcome, vary) === normalised(wrapped.outcome, vary);
  return { label: step.label, kind: step.kind, premise, identical, direct: direct.outcome, wrapped: wrapped.outcome };
}

/** Secrets found in what the client received through Warden during one call. */
export function leaked(messages, secrets) {
  const text = textOf(messages);
  return secrets.filter((s) => text.includes(s));
}

/** Where a judge names no retryable, the code's own (README, Error codes). */
const RETRYABLE = { RATE_LIMITED: true, TIMEOUT: true, UPSTREAM_ERROR: true };

export function judgeFailure(step, direct, wrapped, serverSecrets) {
  const judge = step.judge;
  const secrets = [...serverSecrets, ...(judge.secrets ?? [])];
  const error = wardenError(wrapped.outcome);
  const protocolForResult = direct.outcome.result?.isError === true && wrapped.outcome.error !== undefined;
  const code = error?.code ?? null;
  const retryable = error?.retryable ?? null;
  const expectedRetryable = judge.retryable ?? RETRYABLE[code] ?? false;
  const rightCode = error !== null && judge.codes.includes(code) && retryable === expectedRetryable
    && !protocolForResult && failed(wrapped.outcome);
  const text = textOf(wrapped.outcome);
  const missing = (judge.fix ?? []).filter((f) => !text.includes(f));
  const leaks = leaked(wrapped.messages, secrets);
  return {
    label: step.label,
    kind: step.kind,
    premise: failed(direct.outcome),
    leaks,
    // A secret the direct answer carried: the judge's secret is real, not a guess.
    secretsDirect: leaked(direct.messages, secrets),
    rightCode,
    got: { code, retryable, protocol: wrapped.outcome.error !== undefined },
    expected: { codes: judge.codes, retryable: judge.retryable ?? 'as the code', fix: judge.fix ?? [] },
    fixKept: missing.length === 0,
    fixMissing: missing,
    direct: direct.outcome,
    wrapped: wrapped.outcome,
  };
}

export function paused(outcome) {
  const error = wardenError(outcome);
  return (error?.retryAfterMs !== undefined && error?.code === 'UPSTREAM_ERROR')
    || /paused/i.test(error?.message ?? '');
}
