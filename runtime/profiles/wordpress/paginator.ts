// Archive paging, WordPress's way, in one place: the `page`/`per_page` parameters (the
// settings' PER_PAGE by default, at most MAX_PER_PAGE), the window a page reads, the 404 past
// a post archive's last page, the totals headers (X-WP-* and the plugin's X-TEC-*), the
// `Link` rel=next/prev headers generic REST clients follow, and the archive envelope: the
// plugin's `{<list>, rest_url, next_rest_url, previous_rest_url, total, total_pages}`, in
// the key order of its post and term archives, around records or their JSON text.
import type { ModelDescriptor } from "../../descriptor.js";
import { JsonText } from "../../query/json-text.js";
import { WpError } from "./errors.js";
import type { Params } from "./params.js";
import type { WpContext } from "./context.js";

export interface Paging { page: number; perPage: number }

/** A page as the store read it. */
export interface ReadPage<T> { count: number; results: T[] }

/** A page as the store read it, its records as their JSON text. */
export interface TextPage { count: number; results: JsonText }

/** Where an archive's envelope holds its records. */
const RECORDS = Symbol("records");

export class WpPaginator {
  constructor(private readonly settings: Record<string, unknown>) {}

  /** The page asked for; `page` and `per_page` must be positive integers. */
  paging(params: Params): Paging {
    const bad: string[] = [];
    // A bracketed parameter is an object without a prototype, which Number() cannot convert.
    const num = (v: unknown) => (typeof v === "string" || typeof v === "number" ? Number(v) : NaN);
    const page = params.page === undefined ? 1 : num(params.page);
    const per = params.per_page === undefined ? Number(this.settings.PER_PAGE ?? 10) : num(params.per_page);
    const ok = (v: unknown, n: number) => n > 0 && /^\s*\d+\s*$/.test(String(v));
    if (params.page !== undefined && !ok(params.page, page)) bad.push("page");
    if (params.per_page !== undefined && !ok(params.per_page, per)) bad.push("per_page");
    if (bad.length) throw new WpError(400, "rest_invalid_param", `Invalid parameter(s): ${bad.join(", ")}`, { params: Object.fromEntries(bad.map((b) => [b, "Invalid parameter."])), details: [] });
    return { page, perPage: Math.min(per, Number(this.settings.MAX_PER_PAGE ?? 50)) };
  }

  /** The rows a page reads. */
  window(paged: Paging): { limit: number; offset: number } {
    return { limit: paged.perPage, offset: Math.min((paged.page - 1) * paged.perPage, Number.MAX_SAFE_INTEGER) };
  }

  /**
   * Answers a page of `m`'s archive: its records (each read record through `shape`, or
   * their JSON text as PostgreSQL wrote it), the totals and links. `echo` holds the filters
   * the links repeat (post archives repeat them; term archives only the page).
   */
  respond<T>(ctx: WpContext, m: ModelDescriptor, paged: Paging, page: ReadPage<T> | TextPage, echo: Record<string, string>, shape: (values: T) => Record<string, unknown>): void {
    const wp = m.wordpress!;
    const total = page.count;
    const totalPages = total ? Math.ceil(total / paged.perPage) : 0;
    const empty = page.results instanceof JsonText ? page.results.isEmptyList : !page.results.length;
    if (wp.kind === "post" && empty && paged.page > 1) {
      throw new WpError(404, `${wp.noun}-archive-page-not-found`, `The requested ${wp.noun} archive page does not exist`);
    }
    const base = `${ctx.site.nsUrl}/${wp.listKey}/`;
    const url = (n: number, withFilters: boolean) => {
      const qs = new URLSearchParams(withFilters ? echo : {});
      if (withFilters && ctx.params.per_page !== undefined) qs.set("per_page", String(paged.perPage));
      if (n > 1) qs.set("page", String(n));
      const s = qs.toString();
      return s ? `${base}?${s}` : base;
    };
    const headers = {
      "X-TEC-Total": String(total), "X-TEC-TotalPages": String(totalPages),
      "X-WP-Total": String(total), "X-WP-TotalPages": String(totalPages),
    };
    const next: Array<[string, string]> = paged.page < totalPages ? [["next_rest_url", url(paged.page + 1, wp.kind === "post")]] : [];
    // Post archives never get here past their last page (404 above); term archives link the
    // previous page arithmetically, as WordPress's terms controller does.
    const previous: Array<[string, string]> = paged.page > 1 ? [["previous_rest_url", url(paged.page - 1, wp.kind === "post")]] : [];
    // WordPress core's collection paging links, which generic REST clients (wpapi's _paging) follow.
    for (const [, link] of next) ctx.res.append("Link", `<${link}>; rel="next"`);
    for (const [, link] of previous) ctx.res.append("Link", `<${link}>; rel="prev"`);
    const entries: Array<[string, unknown]> = wp.kind === "term"
      ? [["rest_url", base], ["total", total], ["total_pages", totalPages], [wp.listKey, RECORDS], ...next, ...previous]
      : [[wp.listKey, RECORDS], ["rest_url", url(paged.page, true)], ...next, ...previous, ["total", total], ["total_pages", totalPages]];
    const results = page.results;
    // The records' text kept in its pieces, the envelope's around them: never one string.
    const body = results instanceof JsonText
      ? new JsonText(...entries.flatMap(([k, v], n) => [`${n ? "," : "{"}${JSON.stringify(k)}:`, v === RECORDS ? results : JSON.stringify(v)]), "}")
      : Object.fromEntries(entries.map(([k, v]) => [k, v === RECORDS ? results.map(shape) : v]));
    ctx.wp.policy.renderer.json(ctx.res, ctx.params, 200, body, headers);
  }
}
