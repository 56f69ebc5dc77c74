// A small HTTP client for end-to-end tests: JSON in and out, a token by default, and the
// raw status, headers and body kept for assertions.
import { startTestServer } from "./server.js";

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  token?: string | null;
  headers?: Record<string, string>;
  /** A value to send as JSON, or a raw string (sent as given). */
  body?: unknown;
  raw?: boolean;
}

export async function call<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<Reply<T>> {
  const server = await startTestServer();
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  const token = opts.token === undefined ? server.token : opts.token;
  if (token) headers.Authorization = `Token ${token}`;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = opts.raw ? String(opts.body) : JSON.stringify(opts.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === "content-type")) headers["Content-Type"] = "application/json";
  }
  const res = await fetch(path.startsWith("http") ? path : `${server.url}${path}`, { method, headers, body, redirect: "manual" });
  const text = await res.text();
  let parsed: unknown = text;
  try { parsed = text ? JSON.parse(text) : null; } catch { /* not JSON: keep the text */ }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

export const get = <T = any>(path: string, opts?: CallOptions) => call<T>("GET", path, opts);
export const post = <T = any>(path: string, body: unknown, opts?: CallOptions) => call<T>("POST", path, { ...opts, body });
export const put = <T = any>(path: string, body: unknown, opts?: CallOptions) => call<T>("PUT", path, { ...opts, body });
export const patch = <T = any>(path: string, body: unknown, opts?: CallOptions) => call<T>("PATCH", path, { ...opts, body });
export const del = <T = any>(path: string, body?: unknown, opts?: CallOptions) => call<T>("DELETE", path, { ...opts, body });
