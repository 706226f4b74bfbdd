// What the end-to-end clients share: a record of each scenario, as the Java tests read it.
// capture(out, name, fn) stores { ok: true, value } or { ok: false, error: {name, code, message, data} }.
export async function capture(out, name, fn) {
  try {
    out[name] = { ok: true, value: await fn() };
  } catch (e) {
    out[name] = { ok: false, error: { name: e?.constructor?.name, code: e?.code, message: e?.message, data: e?.data } };
  }
}
