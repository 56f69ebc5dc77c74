// Database failures the profiles answer as what they are rather than as the server's fault:
// the database away (a 503 the client may retry), and text PostgreSQL cannot store (the
// client's 400). A NUL byte can reach a statement through any query parameter, path segment or body
// field a profile or hook reads itself (filters and the store's write fields refuse it by
// name first); rather than guard each, the profiles answer the database's refusal as the
// client's 400.

/** character_not_in_repertoire (a NUL byte in text), untranslatable_character (`\u0000` in JSON). */
const UNSTORABLE_TEXT = new Set(["22021", "22P05"]);

/** Whether `err` is the database refusing text it cannot store. */
export function unstorableText(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && UNSTORABLE_TEXT.has(code);
}

/**
 * Connection exceptions and shutdowns (class 08, 57P01-57P03), too many connections (53300),
 * and the hosts' refusals: the database is away, or restarting, not the request at fault.
 */
const UNAVAILABLE_CODES = new Set(["57P01", "57P02", "57P03", "53300", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTFOUND", "EAI_AGAIN"]);

/** Whether `err` says the database cannot be reached now: a wait for a connection ran out, or one broke. */
export function databaseUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown; message?: unknown } | null;
  if (!e || typeof e !== "object") return false;
  if (e.name === "KnexTimeoutError") return true;
  if (typeof e.code === "string") return UNAVAILABLE_CODES.has(e.code) || e.code.startsWith("08");
  // pg's own words for a connection the server closed under it, which carry no code (knex
  // puts the statement before them).
  return typeof e.message === "string" && /Connection terminated|Client has encountered a connection error|connection timeout expired/i.test(e.message);
}

/**
 * A standby cancelling a statement whose snapshot or locks stood in the way of replaying the
 * primary's WAL ("canceling statement due to conflict with recovery": 40001, or 40P01 for a
 * buffer-pin deadlock). A standby runs no serializable transactions, so on a replica's
 * connection these codes mean nothing else.
 */
export function recoveryConflict(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === "40001" || code === "40P01";
}

/** query_canceled: a statement PostgreSQL stopped at the statement timeout. */
const QUERY_CANCELED = "57014";

/** Whether `err` is a read's statement cancelled for running past the statement timeout (STATEMENT_TIMEOUT). */
export function statementTimedOut(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === QUERY_CANCELED;
}

/** Seconds a client is told to wait before retrying while the database is away. */
export const RETRY_AFTER_SECONDS = 5;
