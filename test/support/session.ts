// The shape of a recorded client session (test/support/record-session.ts writes it, the sessions
// test reads it): request/response pairs with the few headers that matter and parsed bodies.

/** The key of the body recorded in place of a reply too large to keep (its size in bytes). */
export const OMITTED = "$omitted_bytes";

export interface Exchange {
  method: string;
  /** Path and query string, as the client sent them. */
  path: string;
  request: { headers: Record<string, string>; body: unknown };
  response: { status: number; headers: Record<string, string>; body: unknown };
}

export interface Session {
  /** Which client script made it, e.g. `pynautobot 1.5.5: docs/clients/pynautobot-ipam.py`. */
  client: string;
  exchanges: Exchange[];
}
