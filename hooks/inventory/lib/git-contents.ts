// What a Git repository provides besides jobs, loaded from Nautobot's folder layout by the
// sync (runtime/features/git/): config context schemas from `config_context_schemas/`, config
// contexts from `config_contexts/` (files of one context or a list, each with its `_metadata`,
// and `config_contexts/<filter>/<slug>.(json|yaml)` for one assignment), as Nautobot's
// datasources/git.py. Each is written through the engine as an API write (validated, change
// logged), owned by the repository (owner_content_type and owner_object_id), and only when it
// changed; those the repository no longer gives are deleted. Export templates are accepted as
// a content, but this API has none: the sync says so and loads nothing.
import { readdir, readFile, stat } from "node:fs/promises";
import { extname, join } from "node:path";
import { parse as parseYaml } from "yaml";
import { type Content, type SyncContext, type ModelDescriptor, ValidationError } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";

/** The content type owned rows name their owner by. */
export const OWNER_TYPE = "extras.gitrepository";

type Data = Record<string, any>;

/** The relations a context's `_metadata` may name, each with the model it names objects of (Nautobot's list). */
const RELATIONS: Array<[string, string]> = [
  ["regions", "dcim.region"], ["sites", "dcim.site"], ["locations", "dcim.location"], ["device_types", "dcim.devicetype"],
  ["roles", "dcim.devicerole"], ["platforms", "dcim.platform"], ["cluster_groups", "virtualization.clustergroup"],
  ["clusters", "virtualization.cluster"], ["tenant_groups", "tenancy.tenantgroup"], ["tenants", "tenancy.tenant"], ["tags", "extras.tag"],
];

const plain = (v: unknown): v is Data => typeof v === "object" && v !== null && !Array.isArray(v);

const isDir = (p: string) => stat(p).then((s) => s.isDirectory(), () => false);
const isFile = (p: string) => stat(p).then((s) => s.isFile(), () => false);

/** A data file: YAML, of which JSON is a part, as Nautobot reads both. */
async function load(path: string): Promise<unknown> {
  return parseYaml(await readFile(path, "utf8"));
}

/** The files of a folder, by name (none when it is missing). */
async function filesOf(dir: string): Promise<string[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).sort();
  const out: string[] = [];
  for (const n of names) if (!n.startsWith(".") && (await isFile(join(dir, n)))) out.push(n);
  return out;
}

/** Work on one file in a savepoint: a statement the database refuses leaves the sync's transaction usable, to report the other files. */
function inSavepoint(ctx: SyncContext, work: (c: SyncContext) => Promise<void>): Promise<void> {
  return ctx.engine.operations.savepoint(ctx.op, (sp) => work({ ...ctx, op: sp, db: sp.trx }));
}

/** A validation error's messages as one line. */
function reason(err: unknown): string {
  if (err instanceof ValidationError) return JSON.stringify(err.errors);
  return err instanceof Error ? err.message : String(err);
}

/** Reads and writes of one model's rows owned by the repository. */
class Owned {
  readonly m: ModelDescriptor;
  constructor(private readonly ctx: SyncContext, key: string, private readonly names: { table: string; columns: Record<string, string> }) {
    this.m = ctx.engine.index.model(key);
  }

  private get version(): string {
    const { versions } = this.ctx.engine.api;
    return versions.supported.at(-1) ?? versions.default;
  }

  /** The repository's rows: id by name. */
  async rows(): Promise<Map<string, string>> {
    const c = this.names.columns;
    const rows: Array<{ id: string; name: string }> = await this.ctx.db(this.names.table)
      .where(c.owner_content_type, OWNER_TYPE).where(c.owner_object_id, this.ctx.repository.id).select("id", `${c.name} as name`);
    return new Map(rows.map((r) => [r.name, r.id]));
  }

  /** The row in full, as the API shows it. */
  async shown(id: string): Promise<Data> {
    const [row] = await this.ctx.engine.store.fetch(this.ctx.op, this.m, [id], { shape: "full", version: this.version, include: "all", ctx: { apiUrl: this.ctx.engine.api.basePath }, unscoped: true });
    return row as Data;
  }

  async create(body: Data): Promise<string> {
    const id = await this.ctx.engine.store.create(this.ctx.op, this.m, body, { version: this.version, partial: false });
    const c = this.names.columns;
    await this.ctx.db(this.names.table).where("id", id).update({ [c.owner_content_type]: OWNER_TYPE, [c.owner_object_id]: this.ctx.repository.id });
    return id;
  }

  update(id: string, body: Data): Promise<void> {
    return this.ctx.engine.store.update(this.ctx.op, this.m, id, body, { version: this.version, partial: true });
  }

  /** Deletes the rows the repository owns but did not give this time, each logged. */
  async prune(keep: Set<string>, grouping: string, what: string): Promise<void> {
    for (const [name, id] of await this.rows()) {
      if (keep.has(name)) continue;
      await this.ctx.engine.store.remove(this.ctx.op, this.m, [id]);
      await this.ctx.log("warning", grouping, `Deleted ${what} ${name}`);
    }
  }
}

/** What a config context's relation list names, as the API writes it: ids (tags by slug); refused when an entry finds no object or several. */
async function relationValues(ctx: SyncContext, name: string, meta: Data): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [key, model] of RELATIONS) {
    const given = meta[key] ?? [];
    if (!Array.isArray(given)) throw new Error(`\`_metadata\` key \`${key}\` must be a list`);
    const label = ctx.engine.index.model(model).name;
    out[key] = [];
    for (const attrs of given) {
      let id: string;
      try {
        if (!plain(attrs)) throw new Error("not an object");
        id = await ctx.engine.store.idOf(ctx.op, model, attrs);
      } catch {
        throw new Error(`No matching ${label} found for ${JSON.stringify(attrs)}; unable to create/update context ${name}`);
      }
      if (key === "tags") {
        const t = tables.extras.tag;
        id = (await ctx.db(t.table).where("id", id).first(`${t.columns.slug} as slug`)).slug;
      }
      out[key].push(id);
    }
  }
  if (meta.dynamic_groups !== undefined) throw new Error("`_metadata` key `dynamic_groups`: dynamic groups are not served by this API");
  return out;
}

const sameSet = (a: unknown[], b: unknown[]) => a.length === b.length && [...a].map(String).sort().join("\0") === [...b].map(String).sort().join("\0");
const same = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (plain(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(v[k])]));
  return v;
}

/** One config context of the repository (Nautobot's import_config_context): gives its name. */
async function importContext(ctx: SyncContext, contexts: Owned, existing: Map<string, string>, entry: unknown): Promise<string> {
  if (!plain(entry)) throw new Error("data must be a dict or list of dicts");
  if (!plain(entry._metadata)) throw new Error("data is missing the required `_metadata` key.");
  const meta = entry._metadata;
  if (!("name" in meta)) throw new Error("data `_metadata` is missing the required `name` key.");
  const name = String(meta.name);
  const { _metadata: _, ...data } = entry;
  let schema: string | null = null;
  if (meta.schema) {
    const s = tables.extras.configcontextschema;
    const found = await ctx.db(s.table).where(s.columns.name, String(meta.schema)).first("id");
    if (!found) throw new Error(`ConfigContextSchema ${meta.schema} does not exist.`);
    schema = found.id;
  }
  const body: Data = {
    name, weight: meta.weight ?? 1000, description: meta.description ?? "", is_active: meta.is_active ?? true, schema, data,
    ...(await relationValues(ctx, name, meta)),
  };
  const id = existing.get(name);
  const grouping = "config contexts";
  if (!id) {
    const made = await contexts.create(body);
    await ctx.log("success", grouping, "Successfully created config context", { display: name, url: `${ctx.engine.api.basePath}/extras/config-contexts/${made}/` });
    return name;
  }
  const now = await contexts.shown(id);
  const ref = (x: unknown) => (plain(x) ? (x.id ?? x.slug) : x);
  const changed = (["weight", "description", "is_active"] as const).some((f) => now[f] !== body[f]) || !same(now.data, data)
    || (ref(now.schema) ?? null) !== schema || RELATIONS.some(([k]) => !sameSet((now[k] ?? []).map(ref), body[k]));
  const obj = { display: name, url: `${ctx.engine.api.basePath}/extras/config-contexts/${id}/` };
  if (!changed) {
    await ctx.log("info", grouping, "No change to config context", obj);
    return name;
  }
  await contexts.update(id, body);
  await ctx.log("success", grouping, "Successfully refreshed config context", obj);
  return name;
}

/** The filter folders of `config_contexts/` (Nautobot's list, less dynamic groups). */
const FILTER_FOLDERS = RELATIONS.map(([k]) => k);

export const configContexts: Content = {
  identifier: "extras.configcontext",
  name: "config contexts",
  weight: 200,
  async refresh(ctx) {
    const owned = (c: SyncContext) => new Owned(c, "extras.configcontext", tables.extras.configcontext);
    const managed = new Set<string>();
    const root = join(ctx.dir, "config_contexts");
    const grouping = "config contexts";
    if (ctx.provides && (await isDir(root))) {
      const existing = await owned(ctx).rows();
      const attempt = async (file: string, work: (contexts: Owned, c: SyncContext) => Promise<void>) => {
        try {
          await inSavepoint(ctx, (c) => work(owned(c), c));
        } catch (err) {
          await ctx.log("failure", grouping, `Error in loading config context data from \`${file}\`: ${reason(err)}`);
        }
      };
      for (const file of await filesOf(root)) {
        await ctx.log("default", grouping, `Loading config context from \`${file}\``);
        await attempt(file, async (contexts, c) => {
          const loaded = await load(join(root, file));
          for (const entry of Array.isArray(loaded) ? loaded : [loaded]) managed.add(await importContext(c, contexts, existing, entry));
        });
      }
      for (const filter of FILTER_FOLDERS) {
        if (await isDir(join(ctx.dir, filter))) {
          await ctx.log("warning", grouping, `Found "${filter}" directory in the repository root. If this is meant to contain config contexts, it should be moved into a \`config_contexts/\` subdirectory.`);
        }
        for (const file of await filesOf(join(root, filter))) {
          const slug = file.slice(0, file.length - extname(file).length);
          await ctx.log("default", grouping, `Loading config context, filter \`${filter} = [slug: "${slug}"]\`, from \`${filter}/${file}\``);
          await attempt(file, async (contexts, c) => {
            const loaded = await load(join(root, filter, file));
            if (!plain(loaded)) throw new Error("data must be a dict");
            const meta: Data = plain(loaded._metadata) ? loaded._metadata : {};
            meta[filter] = [...(Array.isArray(meta[filter]) ? meta[filter] : []), { slug }];
            managed.add(await importContext(c, contexts, existing, { ...loaded, _metadata: meta }));
          });
        }
      }
    }
    await owned(ctx).prune(managed, grouping, "config context");
  },
};

/** One config context schema of the repository (Nautobot's import_config_context_schema): gives its name. */
async function importSchema(ctx: SyncContext, schemas: Owned, existing: Map<string, string>, entry: unknown): Promise<string> {
  if (!plain(entry)) throw new Error("data must be a dict or a list of dicts");
  if (!plain(entry._metadata)) throw new Error("data is missing the required `_metadata` key.");
  const meta = entry._metadata;
  if (!("name" in meta)) throw new Error("data `_metadata` is missing the required `name` key.");
  const name = String(meta.name);
  const body = { name, description: meta.description ?? "", data_schema: entry.data_schema };
  const id = existing.get(name);
  const grouping = "config context schemas";
  if (!id) {
    const made = await schemas.create(body);
    await ctx.log("success", grouping, "Successfully created config context schema", { display: name, url: `${ctx.engine.api.basePath}/extras/config-context-schemas/${made}/` });
    return name;
  }
  const now = await schemas.shown(id);
  const obj = { display: name, url: `${ctx.engine.api.basePath}/extras/config-context-schemas/${id}/` };
  if (now.description === body.description && same(now.data_schema, body.data_schema)) {
    await ctx.log("info", grouping, "No change to config context schema", obj);
    return name;
  }
  await schemas.update(id, { description: body.description, data_schema: body.data_schema });
  await ctx.log("success", grouping, "Successfully refreshed config context schema", obj);
  return name;
}

export const configContextSchemas: Content = {
  identifier: "extras.configcontextschema",
  name: "config context schemas",
  weight: 100,
  async refresh(ctx) {
    const owned = (c: SyncContext) => new Owned(c, "extras.configcontextschema", tables.extras.configcontextschema);
    const managed = new Set<string>();
    const root = join(ctx.dir, "config_context_schemas");
    const grouping = "config context schemas";
    if (ctx.provides && (await isDir(root))) {
      const existing = await owned(ctx).rows();
      for (const file of await filesOf(root)) {
        await ctx.log("default", grouping, `Loading config context schema from \`${file}\``);
        try {
          await inSavepoint(ctx, async (c) => {
            const loaded = await load(join(root, file));
            for (const entry of Array.isArray(loaded) ? loaded : [loaded]) managed.add(await importSchema(c, owned(c), existing, entry));
          });
        } catch (err) {
          await ctx.log("failure", grouping, `Error in loading config context schema data from \`${file}\`: ${reason(err)}`);
        }
      }
    }
    await owned(ctx).prune(managed, grouping, "config context schema");
  },
};

export const exportTemplates: Content = {
  identifier: "extras.exporttemplate",
  name: "export templates",
  weight: 400,
  async refresh(ctx) {
    if (ctx.provides) await ctx.log("warning", "export templates", "Export templates are not served by this API: none were loaded.");
  },
};
