// A job's variables as Nautobot's API shows and checks them: the variables endpoint's entries
// (JobViewSet.variables), and a run's data cleaned as Job.validate_data and the Django form
// fields behind Nautobot's variable classes clean it, refused in their words. Objects are
// looked up through a function the caller gives; nothing here opens a connection.
import { isIP } from "node:net";
import { bitsOf, formatAddress, parseAddress, type VariableRecord } from "../../../runtime/hooks.js";

/** What the variables endpoint shows of a variable (Nautobot's JobViewSet.variables), in its key order. */
export function describe(r: VariableRecord): Record<string, unknown> {
  const out: Record<string, unknown> = { name: r.name, type: r.type };
  for (const key of ["label", "help_text", "required", "min_length", "max_length", "min_value", "max_value", "choices"] as const) {
    if (r[key] !== undefined) out[key] = r[key];
  }
  if (r.default !== undefined) out.default = r.default;
  if (r.model) out.model = r.model;
  return out;
}

/** Data a run cannot take: Nautobot's `{"errors": …}` body, a list or messages by variable. */
export class JobDataError extends Error {
  constructor(readonly errors: string[] | Record<string, string[]>) {
    super("invalid job data");
  }
}

/**
 * Finds the objects of an object variable's values, all at once: each value an id or a
 * dictionary of attributes, among the objects of `model` that meet `filters`; gives each
 * one's id, in the order given, or null for one that names none.
 */
export type ObjectLookup = (model: string, values: unknown[], filters: Record<string, string | string[]> | undefined) => Promise<Array<string | null>>;

const REQUIRED = "This field is required.";
const EMPTY = (v: unknown) => v === null || v === undefined || v === "" || (Array.isArray(v) && v.length === 0)
  || (typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);

/** Python's str() of a JSON value, as Django's CharField makes text of what it is given. */
const pyStr = (v: unknown): string => (v === true ? "True" : v === false ? "False" : typeof v === "object" ? JSON.stringify(v) : String(v));

/** A field's verdict: its cleaned value, or the messages refusing it. */
type Clean = { value: unknown } | { errors: string[] };
const refuse = (...errors: string[]): Clean => ({ errors });

function text(r: VariableRecord, raw: unknown): Clean {
  const value = raw === null || raw === undefined ? "" : pyStr(raw).trim();
  if (value === "") return r.required ? refuse(REQUIRED) : { value };
  // Django's order: the field's own validators (the regex), then CharField's length bounds.
  const errors: string[] = [];
  if (r.regex && !new RegExp(r.regex).test(value)) errors.push(`Invalid value. Must match regex: ${r.regex}`);
  if (r.min_length && value.length < r.min_length) errors.push(`Ensure this value has at least ${r.min_length} characters (it has ${value.length}).`);
  if (r.max_length && value.length > r.max_length) errors.push(`Ensure this value has at most ${r.max_length} characters (it has ${value.length}).`);
  return errors.length ? { errors } : { value };
}

function integer(r: VariableRecord, raw: unknown): Clean {
  if (raw === null || raw === undefined || raw === "") return r.required ? refuse(REQUIRED) : { value: null };
  const textual = typeof raw === "number" || typeof raw === "string" ? String(raw).trim().replace(/\.0*$/, "") : "";
  if (!/^[+-]?\d+$/.test(textual)) return refuse("Enter a whole number.");
  const value = Number(textual);
  const errors: string[] = [];
  if (r.max_value && value > r.max_value) errors.push(`Ensure this value is less than or equal to ${r.max_value}.`);
  if (r.min_value && value < r.min_value) errors.push(`Ensure this value is greater than or equal to ${r.min_value}.`);
  return errors.length ? { errors } : { value };
}

function boolean(raw: unknown): Clean {
  if (typeof raw === "string" && ["false", "0"].includes(raw.toLowerCase())) return { value: false };
  return { value: !EMPTY(raw) && raw !== false && raw !== 0 };
}

const invalidChoice = (value: string) => `Select a valid choice. ${value} is not one of the available choices.`;

function choice(r: VariableRecord, raw: unknown): Clean {
  const value = raw === null || raw === undefined ? "" : pyStr(raw);
  if (value === "") return r.required ? refuse(REQUIRED) : { value };
  return (r.choices ?? []).some(([k]) => String(k) === value) ? { value } : refuse(invalidChoice(value));
}

function multiChoice(r: VariableRecord, raw: unknown): Clean {
  if (EMPTY(raw)) return r.required ? refuse(REQUIRED) : { value: [] };
  if (!Array.isArray(raw)) return refuse("Enter a list of values.");
  const values = raw.map(pyStr);
  const bad = values.find((v) => !(r.choices ?? []).some(([k]) => String(k) === v));
  return bad === undefined ? { value: values } : refuse(invalidChoice(bad));
}

async function object(r: VariableRecord, raw: unknown, lookup: ObjectLookup): Promise<Clean> {
  if (EMPTY(raw)) return r.required ? refuse(REQUIRED) : { value: null };
  const [id] = await lookup(r.model!, [raw], r.query_params);
  return id ? { value: id } : refuse("Select a valid choice. That choice is not one of the available choices.");
}

async function multiObject(r: VariableRecord, raw: unknown, lookup: ObjectLookup): Promise<Clean> {
  if (EMPTY(raw)) return r.required ? refuse(REQUIRED) : { value: [] };
  if (!Array.isArray(raw)) return refuse("Enter a list of values.");
  const ids = await lookup(r.model!, raw, r.query_params);
  const unknown = ids.indexOf(null);
  return unknown >= 0 ? refuse(invalidChoice(pyStr(raw[unknown]))) : { value: [...new Set(ids)] };
}

/** Nautobot's IPAddressFormField: a v4 or v6 address, no mask. */
function ipAddress(r: VariableRecord, raw: unknown): Clean {
  if (EMPTY(raw)) return r.required ? refuse(REQUIRED) : { value: null };
  const value = pyStr(raw);
  return isIP(value) ? { value: canonical(value) } : refuse(`Invalid IPv4/IPv6 address format: ${value}`);
}

/** Nautobot's IPNetworkFormField: an address with its mask; an IPNetworkVar's also a network (host bits zero), within its length bounds. */
function ipNetwork(r: VariableRecord, raw: unknown): Clean {
  if (EMPTY(raw)) return r.required ? refuse(REQUIRED) : { value: null };
  const value = pyStr(raw);
  const parts = value.split("/");
  if (parts.length !== 2) return refuse("CIDR mask (e.g. /24) is required.");
  const [address, mask] = parts;
  const family = isIP(address);
  const length = /^\d+$/.test(mask) ? Number(mask) : NaN;
  if (!family || !(length >= 0 && length <= (family === 4 ? 32 : 128))) return refuse("Please specify a valid IPv4 or IPv6 address.");
  const written = `${canonical(address)}/${length}`;
  if (r.type !== "IPNetworkVar") return { value: written };
  const network = `${networkOf(address, length)}/${length}`;
  const errors: string[] = [];
  if (network !== written) errors.push(`${written} is not a valid prefix. Did you mean ${network}?`);
  if (r.min_prefix_length !== undefined && length < r.min_prefix_length) errors.push(`The prefix length must be greater than or equal to ${r.min_prefix_length}.`);
  if (r.max_prefix_length !== undefined && length > r.max_prefix_length) errors.push(`The prefix length must be less than or equal to ${r.max_prefix_length}.`);
  return errors.length ? { errors } : { value: written };
}

/** An address in canonical text (RFC 5952 for IPv6). */
function canonical(address: string): string {
  const { family, value } = parseAddress(address);
  return formatAddress(family, value);
}

function networkOf(address: string, length: number): string {
  const { family, value } = parseAddress(address);
  const host = (1n << BigInt(bitsOf(family) - length)) - 1n;
  return formatAddress(family, value & ~host);
}

async function clean(r: VariableRecord, raw: unknown, lookup: ObjectLookup): Promise<Clean> {
  switch (r.type) {
    case "StringVar": case "TextVar": case "FileVar": return text(r, raw);
    case "IntegerVar": return integer(r, raw);
    case "BooleanVar": return boolean(raw);
    case "ChoiceVar": return choice(r, raw);
    case "MultiChoiceVar": return multiChoice(r, raw);
    case "ObjectVar": return object(r, raw, lookup);
    case "MultiObjectVar": return multiObject(r, raw, lookup);
    case "IPAddressVar": return ipAddress(r, raw);
    case "IPAddressWithMaskVar": case "IPNetworkVar": return ipNetwork(r, raw);
  }
}

/**
 * A run's data checked against the job's variables: every variable's cleaned value (objects by
 * id), or a JobDataError as Nautobot words it: data that is no object, the first key no variable
 * has, a null for a required variable, or each variable's form errors, in the variables' order.
 */
export async function validateData(records: VariableRecord[], data: unknown, lookup: ObjectLookup): Promise<Record<string, unknown>> {
  if (typeof data !== "object" || data === null || Array.isArray(data)) throw new JobDataError(["Job data needs to be a dict"]);
  const given = data as Record<string, unknown>;
  const byName = new Map(records.map((r) => [r.name, r]));
  const unknown = Object.keys(given).find((k) => !byName.has(k));
  if (unknown !== undefined) throw new JobDataError({ [unknown]: ["Job data contained an unknown property"] });
  const missing = Object.keys(given).find((k) => given[k] === null && byName.get(k)!.required);
  if (missing !== undefined) throw new JobDataError([`${missing} is a required field`]);
  const cleaned: Record<string, unknown> = {};
  const errors: Record<string, string[]> = {};
  for (const r of records) {
    const verdict = await clean(r, given[r.name], lookup);
    if ("errors" in verdict) errors[r.name] = verdict.errors;
    else cleaned[r.name] = verdict.value;
  }
  if (Object.keys(errors).length) throw new JobDataError(errors);
  return cleaned;
}
