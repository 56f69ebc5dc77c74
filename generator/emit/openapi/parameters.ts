// Shared parameters: each distinct parameter object a document uses is written once, under
// `components.parameters`, and every operation refers to it with `$ref`. A list's filters are
// mostly the same objects from model to model (`name__ic`, `created__gte`…): written inline
// they were a quarter of each DRF document. OpenAPI's defaults are left out of them.
import { byCodePoint } from "../../ir/names.js";
import type { Schema } from "./schemas.js";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

interface Shared {
  parameter: Schema;
  /** Who uses it (models' names, or paths for the paths no model owns): names a variant. */
  users: Set<string>;
  /** Every reference to it, filled in once all are known. */
  refs: Array<{ $ref: string }>;
}

export class SharedParameters {
  private readonly byContent = new Map<string, Shared>();

  /** The path item with each parameter (its own and its operations') replaced by a reference. */
  share(item: Schema, user: string): Schema {
    const refer = (list: unknown) => (Array.isArray(list) ? list.map((p: Schema) => this.refer(p, user)) : list);
    const out: Schema = { ...item };
    if (item.parameters) out.parameters = refer(item.parameters);
    for (const method of METHODS) {
      const op = item[method] as Schema | undefined;
      if (op?.parameters) out[method] = { ...op, parameters: refer(op.parameters) };
    }
    return out;
  }

  private refer(written: Schema, user: string): { $ref: string } {
    const parameter = withoutDefaults(written);
    const key = JSON.stringify(parameter);
    let shared = this.byContent.get(key);
    if (!shared) this.byContent.set(key, (shared = { parameter, users: new Set(), refs: [] }));
    shared.users.add(user);
    const ref = { $ref: "" };
    shared.refs.push(ref);
    return ref;
  }

  /**
   * `components.parameters`, and the references filled in. A parameter is named after what it
   * is (`limit`, `name__ic`; a path's `path.id`); where objects of one name differ (`status`,
   * whose choices are each model's), the most used keeps the name and each other one is
   * `<name>.<first user>`, so a name depends on the spec only, never on emission order.
   */
  components(): Record<string, Schema> {
    const groups = new Map<string, Shared[]>();
    for (const shared of this.byContent.values()) {
      const { name, in: where } = shared.parameter as { name: string; in: string };
      const base = where === "query" ? name : `${where}.${name}`;
      groups.set(base, [...(groups.get(base) ?? []), shared]);
    }
    const named = new Map<string, Schema>();
    const firstUser = (s: Shared) => [...s.users].sort(byCodePoint)[0];
    for (const [base, variants] of groups) {
      variants.sort((a, b) => b.refs.length - a.refs.length || byCodePoint(firstUser(a), firstUser(b)));
      variants.forEach((shared, i) => {
        const variant = i === 0 ? base : `${base}.${firstUser(shared).replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^_+|_+$/g, "")}`;
        let name = variant;
        for (let n = 2; named.has(name); n++) name = `${variant}.${n}`;
        named.set(name, shared.parameter);
        for (const ref of shared.refs) ref.$ref = `#/components/parameters/${name}`;
      });
    }
    return Object.fromEntries([...named.keys()].sort(byCodePoint).map((k) => [k, named.get(k)!]));
  }
}

/**
 * A parameter without what OpenAPI assumes when it is absent: `required: false`, and for a
 * query parameter `style: form` with `explode: true` (an array as `?tag=a&tag=b`).
 */
function withoutDefaults(parameter: Schema): Schema {
  const out = { ...parameter };
  if (out.required === false) delete out.required;
  if (out.in === "query" && out.style === "form") delete out.style;
  if (out.in === "query" && out.explode === true && out.style === undefined) delete out.explode;
  return out;
}
