// Helpers for the calendar end-to-end suites: the namespace path, Basic credentials from an
// application password, form-encoded bodies, and a non-editor user.
import { startTestServer } from "../../support/server.js";
import { call, post, type CallOptions, type Reply } from "../../support/http.js";

export const NS = "/wp-json/calendar/events/v1";

export function basic(username: string, password: string): Record<string, string> {
  return { Authorization: `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}` };
}

/** Sends `body` as application/x-www-form-urlencoded. */
export function form(method: string, path: string, body: string, opts: CallOptions = {}): Promise<Reply> {
  return call(method, path, { ...opts, body, raw: true, headers: { ...(opts.headers ?? {}), "Content-Type": "application/x-www-form-urlencoded" } });
}

let contributor: Promise<{ key: string; id: string }> | undefined;

/** A logged-in user without editor rights (not a superuser), made once per run. */
export function contributorUser(): Promise<{ key: string; id: string }> {
  contributor ??= startTestServer().then((s) => s.user("cal-contributor"));
  return contributor;
}

let serial = 0;
/** Creates an event as the admin; gives the created record. */
export async function makeEvent(data: Record<string, unknown> = {}): Promise<any> {
  serial++;
  const res = await post(`${NS}/events`, { title: `Test event ${serial}`, start_date: "+2 days 10:00", end_date: "+2 days 12:00", ...data });
  if (res.status !== 201) throw new Error(`creating event: ${res.status} ${res.text}`);
  return res.body;
}
