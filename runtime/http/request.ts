// Request helpers shared by the profiles: query parameters as ordered multi-maps, the
// absolute URL the client used, and media-type parsing of Accept and Content-Type.
import type { IncomingMessage } from "node:http";
import type { NextFunction, Request, Response } from "express";

/**
 * A request line may name the whole URL (`GET http://host:8000/api/ HTTP/1.1`, the absolute
 * form RFC 9112 §3.2.2 obliges servers to accept; clients send it when configured with an HTTP
 * proxy that is this server). Everything downstream expects a path, so the target becomes its
 * path and query, and the URL's authority replaces `Host`, as that section says it must.
 */
export function originForm(req: Request, _res: Response, next: NextFunction): void {
  toOriginForm(req);
  next();
}

/** `originForm` on a request Express has not seen (runtime/http/fast-path.ts). */
export function toOriginForm(req: IncomingMessage & { originalUrl?: string }): void {
  const url = req.url!;
  if (url.startsWith("/") || !/^https?:\/\//i.test(url)) return;
  try {
    const target = new URL(url);
    req.url = req.originalUrl = `${target.pathname}${target.search}`;
    req.headers.host = target.host;
  } catch { /* not a URL: routing answers 404 as for any unknown path */ }
}

/** The raw query string as the client sent it, without the `?` ("" when there is none). */
export function queryString(req: Request): string {
  const q = req.originalUrl.indexOf("?");
  return q < 0 ? "" : req.originalUrl.slice(q + 1);
}

/** `Location` for the same request with a trailing slash added to the path, query kept. */
export function slashed(req: Request): string {
  const qs = queryString(req);
  return `${req.originalUrl.split("?")[0]}/${qs ? `?${qs}` : ""}`;
}

/** Query parameters in request order, repeated keys gathered. */
export function queryParams(req: Request): Map<string, string[]> {
  return parseQuery(queryString(req));
}

/** `queryParams` of a raw query string. */
export function parseQuery(query: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [k, v] of new URLSearchParams(query)) {
    const list = out.get(k);
    if (list) list.push(v); else out.set(k, [v]);
  }
  return out;
}

/** `http://host:port` as the client addressed us, or the configured public URL. */
export function origin(req: Request, publicUrl?: string): string {
  if (publicUrl) return publicUrl;
  return `${req.protocol}://${req.get("host") ?? "localhost"}`;
}

export interface MediaType {
  type: string;
  params: Record<string, string>;
  q: number;
}

/** `application/json; version=1.3, text/html;q=0.9` → media types, best first. */
export function parseAccept(header: string | undefined): MediaType[] {
  if (!header) return [];
  return header.split(",").map((part, i) => {
    const [type, ...rest] = part.split(";").map((s) => s.trim());
    const params: Record<string, string> = Object.create(null);
    for (const p of rest) {
      const eq = p.indexOf("=");
      if (eq > 0) params[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim().replace(/^"|"$/g, "");
    }
    const q = params.q !== undefined ? Number(params.q) : 1;
    return { type: type.toLowerCase(), params, q: Number.isFinite(q) ? q : 0, i };
  }).filter((m) => m.type).sort((a, b) => b.q - a.q || a.i - b.i).map(({ type, params, q }) => ({ type, params, q }));
}

/** The bare media type of the request body (`application/json`), lower-cased, or "". */
export function contentType(req: Request): string {
  return (req.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
}
