// The browsable API's page around a reply, as DRF's BrowsableAPIRenderer draws it: the reply
// itself (links clickable), paging links, a filter form built from the model's filter set, an
// OPTIONS button, and raw-data forms for the writes the endpoint allows (POST on a list, PUT
// and PATCH on an object, prefilled as DRF's "Raw data" tab is) plus DELETE. The forms are sent
// by templates/static/browsable.js (a same-origin script the content-security policy allows),
// with the session's CSRF token. Knows models only through descriptors.
import { FILTER_FALSE, FILTER_TRUE, type FieldDescriptor, type FilterDescriptor, type ModelDescriptor } from "../../descriptor.js";
import type { ModelIndex } from "../../models.js";
import { escapeHtml } from "../../http/templates.js";

/** One field of DRF's OPTIONS metadata (metadata.ts), which the HTML forms are drawn from. */
export interface FieldInfo {
  type: string;
  required: boolean;
  read_only: boolean;
  label?: string;
  help_text?: string;
  max_length?: number;
  choices?: Array<{ value: unknown; display?: string; display_name?: string }>;
}

/** What the page is about: a model's list or one of its objects, and its fields' metadata for the forms. */
export interface BrowsableView {
  model: ModelDescriptor;
  kind: "list" | "detail";
  fields?: Record<string, FieldInfo>;
}

export interface BrowsableInput {
  index: ModelIndex;
  version: string;
  method: string;
  /** The request's absolute URL. */
  url: URL;
  status: number;
  body: unknown;
  /** The endpoint's Allow header. */
  allow: string[];
  view?: BrowsableView;
  /** Whether the visitor is logged in (a session or a token). */
  user: boolean;
}

type Json = Record<string, unknown>;

/** Query parameters that page, never filter. */
const PAGING = ["limit", "offset", "cursor"];

function pageUrl(url: URL, set: Record<string, string | null>): string {
  const next = new URL(url);
  for (const [k, v] of Object.entries(set)) {
    if (v === null) next.searchParams.delete(k);
    else next.searchParams.set(k, v);
  }
  return `${next.pathname}${next.search}`;
}

/** First, previous, next and last pages of a DRF page envelope (cursor pages have no last). */
function paging(url: URL, body: unknown): Json | null {
  const page = body as { count?: unknown; next?: unknown; previous?: unknown; results?: unknown };
  if (!page || typeof page !== "object" || !Array.isArray(page.results) || !("next" in page) || typeof page.count !== "number") return null;
  const local = (link: unknown) => {
    if (typeof link !== "string") return null;
    const u = new URL(link);
    return `${u.pathname}${u.search}`;
  };
  const previous = local(page.previous);
  const next = local(page.next);
  const limit = Number(url.searchParams.get("limit") ?? new URL(String(page.next ?? page.previous ?? url), url).searchParams.get("limit"));
  const cursor = url.searchParams.has("cursor");
  const lastOffset = limit > 0 && page.count > 0 ? Math.floor((page.count - 1) / limit) * limit : 0;
  return {
    count: page.count,
    first: previous ? pageUrl(url, { offset: null, cursor: cursor ? "" : null }) : null,
    previous,
    next,
    last: next && !cursor && limit > 0 ? pageUrl(url, { offset: String(lastOffset) }) : null,
  };
}

const BOOLEAN_KINDS = new Set(["boolean", "hasRelated", "present"]);

/** The plain (`exact`) filters of the model, each as a form control with the request's value. */
function filterForm(m: ModelDescriptor, url: URL): Json[] {
  const byName = new Map(m.fields.map((f) => [f.name, f]));
  return m.filters.filter((flt) => flt.lookup === "exact" && !flt.param.includes("__")).map((flt: FilterDescriptor) => {
    const value = url.searchParams.getAll(flt.param).at(-1) ?? "";
    const field = flt.field ? byName.get(flt.field) : undefined;
    let choices: Array<[string, string]> | null = null;
    if (BOOLEAN_KINDS.has(flt.kind) || (flt.kind === "method" && flt.takes === "boolean")) choices = [[FILTER_TRUE[0], "Yes"], [FILTER_FALSE[0], "No"]];
    else if (flt.kind === "choice" && field?.kind === "choice") choices = field.choices.map(([v, label]) => [String(v), label]);
    else if (flt.choices) choices = flt.choices.map((c) => [c, c]);
    return {
      name: flt.param,
      label: flt.kind === "q" ? "Search" : field && !flt.idOnly ? field.label : flt.param.replace(/_/g, " "),
      value,
      select: !!choices,
      options: choices ? [{ value: "", label: "---------", selected: value === "" }, ...choices.map(([v, label]) => ({ value: v, label, selected: v === value }))] : [],
    };
  });
}

function writable(index: ModelIndex, m: ModelDescriptor, version: string): FieldDescriptor[] {
  return m.fields.filter((f) => !f.readOnly && index.inVersion(f, version));
}

/** A shown value as a write takes it back: a related object by its id, a choice by its value. */
function asWritten(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asWritten);
  if (value && typeof value === "object") {
    const o = value as Json;
    if ("id" in o) return o.id;
    if ("value" in o && "label" in o) return o.value;
  }
  return value;
}

/** What a new object's raw-data form starts with: every writable field, empty or its default. */
function blankObject(index: ModelIndex, m: ModelDescriptor, version: string): Json {
  return Object.fromEntries(writable(index, m, version).map((f) => {
    const plain = f.default !== undefined && (typeof f.default !== "object" || f.default === null) && f.default !== "now";
    return [f.name, plain ? f.default : index.requiredIn(f, version) ? "" : null];
  }));
}

/** An object's raw-data form: its writable fields as the reply shows them, in the form writes take. */
function editable(index: ModelIndex, m: ModelDescriptor, version: string, shown: Json): Json {
  return Object.fromEntries(writable(index, m, version).filter((f) => f.name in shown).map((f) => [f.name, asWritten(shown[f.name])]));
}

/** Metadata types a form sends as typed (the rest as text, or as JSON when it reads as JSON). */
const NUMERIC = new Set(["integer", "float", "decimal"]);
const TEXT = new Set(["string", "email", "url", "slug", "date", "datetime"]);

/**
 * An HTML form's controls, one per writable field, as DRF's HTML form tab draws them: choices
 * and booleans as selects, numbers as number inputs, text as text, anything else (links, lists,
 * objects) as JSON text; each holding `values`' entry.
 */
function htmlFields(fields: Record<string, FieldInfo>, values: Json): Json[] {
  return Object.entries(fields).filter(([, f]) => !f.read_only).map(([name, f]) => {
    const value = values[name];
    const shown = value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
    const choices = f.type === "boolean" ? [["true", "Yes"], ["false", "No"]]
      : f.choices ? f.choices.map((c) => [String(c.value), c.display ?? c.display_name ?? String(c.value)]) : null;
    const sends = f.type === "boolean" ? "json" : NUMERIC.has(f.type) ? "number" : TEXT.has(f.type) || (choices && f.type !== "boolean") ? "text" : "json";
    return {
      name, label: f.label ?? name, required: f.required, help: f.help_text ?? "", sends,
      select: !!choices, number: NUMERIC.has(f.type), value: shown,
      // Free text (no length limit) and long JSON get room.
      long: (f.type === "string" && !choices && f.max_length === undefined) || (sends === "json" && shown.length > 60),
      options: choices ? [{ value: "", label: "---------", selected: shown === "" }, ...choices.map(([v, label]) => ({ value: v, label, selected: v === shown }))] : [],
    };
  });
}

/** The template's view of one reply. */
export function browsablePage(input: BrowsableInput): Json {
  const { index, version, url, body, view, allow } = input;
  const m = view?.model;
  const form = (method: string, content: Json) => ({
    method, content: JSON.stringify(content, null, 2),
    fields: view?.fields && method !== "PATCH" ? htmlFields(view.fields, content) : [],
  });
  const forms: Json[] = [];
  if (m && input.user) {
    if (view.kind === "list" && allow.includes("POST")) forms.push(form("POST", blankObject(index, m, version)));
    const current = view.kind === "detail" && input.status === 200 && body && typeof body === "object" ? editable(index, m, version, body as Json) : null;
    if (current) {
      if (allow.includes("PUT")) forms.push(form("PUT", current));
      if (allow.includes("PATCH")) forms.push(form("PATCH", {}));
    }
  }
  const filters = m && view.kind === "list" && input.method === "GET" ? filterForm(m, url) : [];
  return {
    name: m ? (view.kind === "list" ? `${m.verboseName[0].toUpperCase()}${m.verboseName.slice(1)} list` : `${m.verboseName[0].toUpperCase()}${m.verboseName.slice(1)}`) : "",
    allow: allow.join(", "),
    options: allow.includes("OPTIONS"),
    deletable: !!m && input.user && view.kind === "detail" && allow.includes("DELETE") && input.status === 200,
    paging: input.method === "GET" ? paging(url, body) : null,
    filters,
    filtering: filters.length > 0,
    filterAction: url.pathname,
    // Paging and format parameters the filter form keeps, as hidden fields.
    kept: [...url.searchParams].filter(([k]) => k === "limit" || k === "brief" || k === "api_version").map(([name, value]) => ({ name, value })),
    active: [...url.searchParams.keys()].some((k) => !PAGING.includes(k)),
    forms,
    // Links stay links, so the API can be browsed by clicking.
    body: escapeHtml(JSON.stringify(body, null, 2)).replace(/&quot;(https?:\/\/[^\s<>]*?)&quot;/g, '&quot;<a href="$1">$1</a>&quot;'),
  };
}
