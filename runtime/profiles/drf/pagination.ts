// Limit/offset pagination as DRF does it: the effective limit and offset from the query,
// and absolute `next`/`previous` links that keep every other parameter (re-encoded in
// sorted key order). Pure functions over plain values. Deep pages may instead be asked for by
// cursor (`cursor`, empty for the first page): `next` then carries the cursor of the page
// after, read from the order's index wherever it is; there is no `previous`. The Paginator
// is the one place a request's page is read and its envelope, `{count, next, previous,
// results}`, is made.
import type { Request } from "express";
import { origin } from "../../http/request.js";
import { ArrivingJsonText, JsonText } from "../../query/json-text.js";

export interface PageSettings {
  defaultLimit: number;
  /** 0 or null: no maximum, and `limit=0` returns everything. */
  maxLimit: number | null;
}

/** Digits read as a number no larger than the database's LIMIT/OFFSET (bigint) and links can print. */
const bounded = (digits: string): number => Math.min(Number(digits), Number.MAX_SAFE_INTEGER);

export function pageParams(limitRaw: string | undefined, offsetRaw: string | undefined, s: PageSettings): { limit: number | null; offset: number } {
  const parsed = limitRaw !== undefined && /^-?\d+$/.test(limitRaw.trim()) ? bounded(limitRaw) : NaN;
  let limit: number | null;
  if (!Number.isFinite(parsed) || parsed < 0) limit = s.defaultLimit;
  else if (s.maxLimit) limit = parsed === 0 ? s.maxLimit : Math.min(parsed, s.maxLimit);
  else limit = parsed === 0 ? null : parsed;
  const off = offsetRaw !== undefined && /^\d+$/.test(offsetRaw.trim()) ? bounded(offsetRaw) : 0;
  return { limit, offset: off };
}

function withParams(url: URL, set: Record<string, string | null>): string {
  const entries: Array<[string, string]> = [];
  for (const [k, v] of url.searchParams) if (!(k in set)) entries.push([k, v]);
  for (const [k, v] of Object.entries(set)) if (v !== null) entries.push([k, v]);
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const qs = new URLSearchParams(entries).toString();
  return `${url.origin}${url.pathname}${qs ? `?${qs}` : ""}`;
}

export function pageLinks(url: URL, limit: number | null, offset: number, count: number): { next: string | null; previous: string | null } {
  if (limit === null) return { next: null, previous: null };
  const next = offset + limit >= count ? null : withParams(url, { limit: String(limit), offset: String(offset + limit) });
  let previous: string | null = null;
  if (offset > 0) {
    previous = offset - limit <= 0
      ? withParams(url, { limit: String(limit), offset: null })
      : withParams(url, { limit: String(limit), offset: String(offset - limit) });
  }
  return { next, previous };
}

/** The `cursor` parameter as the order's values it holds; `[]` for an empty one (the first page); null when it is not a cursor. */
export function decodeCursor(raw: string): Array<string | null> | null {
  if (raw === "") return [];
  try {
    const values: unknown = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
    if (Array.isArray(values) && values.length && values.every((v) => v === null || typeof v === "string")) return values as Array<string | null>;
  } catch {
    // Not base64 of JSON: not a cursor.
  }
  return null;
}

export function cursorLinks(url: URL, limit: number | null, cursor: Array<string | null> | null | undefined): { next: string | null; previous: null } {
  const next = cursor ? withParams(url, { cursor: Buffer.from(JSON.stringify(cursor)).toString("base64url"), offset: null, ...(limit === null ? {} : { limit: String(limit) }) }) : null;
  return { next, previous: null };
}

/** What a page is read from: the request (for its URL) and its query parameters. */
export interface PageRequest {
  req: Request;
  params: Map<string, string[]>;
}

/** A page as DRF's LimitOffsetPagination (and CursorPagination) answers it. */
export interface Page<T = unknown> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** Limit/offset paging of one API: its settings, and the public URL links are made from. */
export class Paginator {
  constructor(private readonly settings: PageSettings, private readonly publicUrl: string | undefined) {}

  /** The page the request asks for. */
  params(r: PageRequest): { limit: number | null; offset: number } {
    return pageParams(r.params.get("limit")?.at(-1), r.params.get("offset")?.at(-1), this.settings);
  }

  /** Rows `offset` on of `count`, with links to the pages beside them. */
  page<T>(r: PageRequest, at: { limit: number | null; offset: number }, count: number, results: T[]): Page<T> {
    const links = pageLinks(this.url(r), at.limit, at.offset, count);
    return { count, next: links.next, previous: links.previous, results };
  }

  /** `page` of results that are JSON text already: the envelope is written around them. */
  pageJson<T extends JsonText | ArrivingJsonText>(r: PageRequest, at: { limit: number | null; offset: number }, count: number, results: T): T {
    return this.envelope(count, pageLinks(this.url(r), at.limit, at.offset, count), results);
  }

  private envelope<T extends JsonText | ArrivingJsonText>(count: number, links: { next: string | null; previous: string | null }, results: T): T {
    const head = `{"count":${count},"next":${JSON.stringify(links.next)},"previous":${JSON.stringify(links.previous)},"results":`;
    return (results instanceof ArrivingJsonText ? results.around(head, "}") : new JsonText(head, results, "}")) as T;
  }

  /** A page reached by cursor: `next` carries the cursor of the page after it. */
  cursorPage<T>(r: PageRequest, limit: number | null, count: number, results: T[], cursor: Array<string | null> | null | undefined): Page<T> {
    const links = cursorLinks(this.url(r), limit, cursor);
    return { count, next: links.next, previous: links.previous, results };
  }

  /** `cursorPage` of results that are JSON text already. */
  cursorPageJson(r: PageRequest, limit: number | null, count: number, results: JsonText, cursor: Array<string | null> | null | undefined): JsonText {
    return this.envelope(count, cursorLinks(this.url(r), limit, cursor), results);
  }

  /** A whole list cut to the page asked for, or a page already chosen (`count` of all, `results` of this page). */
  cut<T>(r: PageRequest, answer: T[] | { count: number; results: T[] }): Page<T> {
    const at = this.params(r);
    if (!Array.isArray(answer)) return this.page(r, at, answer.count, answer.results);
    return this.page(r, at, answer.length, answer.slice(at.offset, at.limit === null ? undefined : at.offset + at.limit));
  }

  /** Every result on one page. */
  whole<T>(results: T[]): Page<T> {
    return { count: results.length, next: null, previous: null, results };
  }

  private url(r: PageRequest): URL {
    return new URL(`${origin(r.req, this.publicUrl)}${r.req.originalUrl}`);
  }
}
