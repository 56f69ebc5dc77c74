// Object permissions (the api's `permissions`: models with Nautobot's ObjectPermission and
// Group fields). A user holds `<action>` on a model through every enabled permission naming
// the model and the action, given to them or to one of their groups; each brings its
// constraints, and the rows the user may act on are those meeting any of them. Superusers
// hold everything. Reads take the condition inside their one statement; writes are checked
// in their operation's transaction: the rows after a create or update must meet an add or
// change constraint, the rows before a delete a delete constraint, else nothing is written.
// The feature lends the engine its Permissions (the profiles' and jobs' checks), narrows every
// read to the rows a user may view, checks every write, and forgets remembered grants when
// this instance writes users, groups or permissions.
import type { Knex } from "knex";
import { forbidden, ValidationError } from "../../errors.js";
import type { ContentTypesField, M2mField, ModelDescriptor } from "../../descriptor.js";
import type { ModelIndex } from "../../models.js";
import type { Actor, RowId, WriteFeature } from "../../operations/index.js";
import { col, ident } from "../../query/sql.js";
import { prepared } from "../../db/prepared.js";
import { sendPresumption } from "../../db/pipeline.js";
import { presumes } from "../../db/presumed.js";
import { labelOf, linkedTypes } from "../../kinds/content-types.js";
import { ConstraintCompiler, ConstraintError, type Condition } from "./constraints.js";
import type { Grants } from "./grants.js";
import type { Feature } from "../types.js";
import { requestScope } from "./scope.js";

export { viewExempt } from "./scope.js";

export type { Grants } from "./grants.js";

/**
 * How long a user's permissions are taken on trust before they are read again, as tokens are
 * (auth/identities.ts): another instance's change to permissions, groups or users applies
 * here within this bound; this instance's own changes at once (`forget`).
 */
export const PERMISSION_TRUST_MS = 1000;
const MAX_REMEMBERED = 10_000;

/** The action a request method asks for (Nautobot's TokenPermissions.perms_map). */
export function actionOf(method: string): string | null {
  switch (method) {
    case "GET": case "HEAD": return "view";
    case "POST": return "add";
    case "PUT": case "PATCH": return "change";
    case "DELETE": return "delete";
    default: return null;
  }
}

const key = (m: ModelDescriptor, action: string) => `${m.key}:${action}`;

/** The many-to-many field `name` of `m` (the generator checks the permission models have them). */
function m2m(m: ModelDescriptor, name: string): M2mField {
  const f = m.fields.find((x): x is M2mField => x.kind === "m2m" && x.name === name);
  if (!f) throw new Error(`${m.key}.${name} is not a many-to-many field`);
  return f;
}

export class Permissions {
  private readonly compiler: ConstraintCompiler;
  private readonly permissions: ModelDescriptor;
  /** The permissions' object types. */
  private readonly types: ContentTypesField;
  private readonly remembered = new Map<string, { grants: Grants; until: number }>();
  /** Conditions compiled for grants, which are not changed once read: by model, action and alias. */
  private readonly compiled = new WeakMap<Grants, Map<string, Condition | null>>();
  /** The models whose changes here make remembered grants stale. */
  readonly sources: Set<ModelDescriptor>;

  constructor(private readonly index: ModelIndex, private readonly users: ModelDescriptor) {
    const spec = index.api.permissions!;
    this.compiler = new ConstraintCompiler(index);
    this.permissions = index.model(spec.objectPermissions);
    const types = this.permissions.fields.find((f): f is ContentTypesField => f.kind === "contentTypes" && f.name === "object_types");
    if (!types) throw new Error(`${this.permissions.key} has no object_types content-types field`);
    this.types = types;
    this.sources = new Set([this.permissions, index.model(spec.groups), users]);
  }

  /** Whether the api has object permissions at all. */
  static of(index: ModelIndex, users: ModelDescriptor | undefined): Permissions | undefined {
    return index.api.permissions && users ? new Permissions(index, users) : undefined;
  }

  forget(): void {
    this.remembered.clear();
  }

  /** The labels (`app.model`) of the object types of permission row `alias`, as an SQL array. */
  private objectTypes(alias: string): string {
    const { registry, through } = this.types;
    return `ARRAY(SELECT ${labelOf(registry, "r")} ${linkedTypes(through, registry, `${alias}.id`)} ORDER BY 1)`;
  }

  /** The user's grants: one statement, then trusted for PERMISSION_TRUST_MS. */
  async grants(db: Knex, userId: string, superuser: boolean): Promise<Grants> {
    if (superuser) return { userId, superuser, held: new Map() };
    const now = Date.now();
    const known = this.remembered.get(userId);
    if (known && known.until > now) return known.grants;
    const p = this.permissions;
    const users = m2m(p, "users");
    const groups = m2m(p, "groups");
    const members = m2m(this.users, "groups");
    const c = (name: string) => col("p", this.index.column(p, name));
    const { rows } = await db.raw(
      `SELECT ${c("actions")} AS actions, ${c("constraints")} AS constraints, ${this.objectTypes("p")} AS models ` +
      `FROM ${ident(p.table)} p WHERE ${c("enabled")} AND (` +
      `EXISTS (SELECT 1 FROM ${ident(users.through.table)} u WHERE ${col("u", users.through.source)} = p.id AND ${col("u", users.through.target)} = ?) OR ` +
      `EXISTS (SELECT 1 FROM ${ident(groups.through.table)} g JOIN ${ident(members.through.table)} m ON ${col("m", members.through.target)} = ${col("g", groups.through.target)} ` +
      `WHERE ${col("g", groups.through.source)} = p.id AND ${col("m", members.through.source)} = ?))`,
      [userId, userId],
    );
    const held = new Map<string, unknown[]>();
    for (const r of rows as Array<{ actions: unknown; constraints: unknown; models: string[] }>) {
      const actions = Array.isArray(r.actions) ? r.actions.filter((a): a is string => typeof a === "string") : [];
      for (const model of r.models) {
        for (const action of actions) {
          const k = `${model}:${action}`;
          held.set(k, [...(held.get(k) ?? []), r.constraints ?? null]);
        }
      }
    }
    const grants = { userId, superuser, held };
    if (this.remembered.size >= MAX_REMEMBERED) this.remembered.delete(this.remembered.keys().next().value!);
    this.remembered.set(userId, { grants, until: now + PERMISSION_TRUST_MS });
    return grants;
  }

  /** Whether the grants allow `action` on some rows of `m`. */
  holds(grants: Grants, m: ModelDescriptor, action: string): boolean {
    return grants.superuser || grants.held.has(key(m, action));
  }

  /**
   * The condition rows of `m` aliased `alias` must meet for `action`: null when every row does.
   * Call only when `holds` is true.
   */
  condition(grants: Grants, m: ModelDescriptor, action: string, alias: string): Condition | null {
    if (grants.superuser) return null;
    // Compiled once for as long as these grants are trusted: every read and write of the user's
    // requests asks, often more than once a request.
    let known = this.compiled.get(grants);
    if (!known) this.compiled.set(grants, (known = new Map()));
    const k = `${key(m, action)}:${alias}`;
    let found = known.get(k);
    if (found === undefined) known.set(k, (found = this.compile(grants, m, action, alias)));
    return found;
  }

  private compile(grants: Grants, m: ModelDescriptor, action: string, alias: string): Condition | null {
    const sets = grants.held.get(key(m, action)) ?? [];
    const parts: Condition[] = [];
    for (const constraints of sets) {
      // A stored constraint that no longer compiles (a field since removed) grants nothing.
      let c: Condition | null;
      try {
        c = this.compiler.compile(m, constraints, alias, grants.userId);
      } catch {
        continue;
      }
      if (c === null) return null;
      parts.push(c);
    }
    if (!parts.length) return { sql: "false", bindings: [] };
    return { sql: parts.map((p) => `(${p.sql})`).join(" OR "), bindings: parts.flatMap((p) => p.bindings) };
  }

  /**
   * Refuses permissions whose constraints do not compile for one of their object types, or
   * whose values the columns cannot hold (tried on an empty read, in a savepoint), as
   * Nautobot's permission form does ("Invalid filter for …").
   */
  private async validate(db: Knex | Knex.Transaction, ids: RowId[]): Promise<void> {
    const p = this.permissions;
    const { rows } = await db.raw(
      `SELECT ${col("p", this.index.column(p, "constraints"))} AS constraints, ${this.objectTypes("p")} AS models FROM ${ident(p.table)} p WHERE p.id = ANY(?)`,
      [ids as Knex.RawBinding],
    );
    for (const r of rows as Array<{ constraints: unknown; models: string[] }>) {
      for (const key of r.models) {
        const m = this.index.byKey.get(key);
        if (!m) continue;
        const refuse = (reason: string) => new ValidationError({ constraints: [{ code: "invalid_constraint", model: m.key, reason }] });
        let cond: Condition | null;
        try {
          cond = this.compiler.compile(m, r.constraints, "t0", null);
        } catch (err) {
          if (err instanceof ConstraintError) throw refuse(err.message);
          throw err;
        }
        if (!cond) continue;
        const { sql, bindings } = cond;
        try {
          // In a savepoint: a value the column cannot hold aborts only the trial.
          await db.transaction((sp) => sp.raw(`SELECT 1 FROM ${ident(m.table)} t0 WHERE ${sql} LIMIT 0`, bindings as Knex.RawBinding[]));
        } catch (err) {
          const { code, message } = err as { code?: string; message?: string };
          if (!code?.startsWith("22") && !code?.startsWith("42")) throw err;
          throw refuse((message ?? "").split(" - ").pop() ?? "");
        }
      }
    }
  }

  /** The write check every operation's writes go through (see the header). */
  feature(): WriteFeature {
    const check = async (db: Knex | Knex.Transaction, m: ModelDescriptor, ids: RowId[], action: string, actor: Actor) => {
      const grants = actor.grants;
      if (!grants || grants.superuser || actor.subject !== m.key) return;
      if (!this.holds(grants, m, action)) throw forbidden();
      const cond = this.condition(grants, m, action, "t0");
      if (!cond) return;
      const within = `(SELECT count(*)::int FROM ${ident(m.table)} t0 WHERE t0.id = ANY(?) AND (${cond.sql}))`;
      const distinct = new Set(ids.map(String)).size;
      // A write that presumes (runtime/db/presumed.ts) waits for no verdict: the check goes
      // with its other statements, and where it does not hold the write runs again the
      // ordinary way, whose check refuses it. A constrained create is one round trip so.
      if (presumes(db)) {
        return sendPresumption(db, prepared(db.raw(`SELECT armature_presume(${within} = ?::int, 'the objects written are within the actor''s permissions')`,
          [ids, ...cond.bindings, distinct] as Knex.RawBinding[])));
      }
      const { rows } = await db.raw(`SELECT ${within} AS n`, [ids, ...cond.bindings] as Knex.RawBinding[]);
      if (rows[0].n < distinct) throw forbidden();
    };
    return {
      watches: () => true,
      saved: async ({ trx, actor }, m, ids, action) => {
        if (m === this.permissions) await this.validate(trx, ids);
        await check(trx, m, ids, action === "create" ? "add" : "change", actor);
      },
      deleting: ({ trx, actor }, m, ids) => check(trx, m, ids, "delete", actor),
    };
  }
}

export const feature = {
  name: "object permissions",
  services: (index) => {
    const permissions = Permissions.of(index, index.api.auth ? index.model(index.api.auth.users) : undefined);
    return permissions ? { permissions } : {};
  },
  write: ({ services }) => services.permissions?.feature(),
  readScope: ({ index, services }) => requestScope(index, services.permissions),
  // This instance's own writes to users, groups and permissions count at once, not after the trust period.
  observe: ({ services: { permissions } }) => permissions && ((m) => { if (permissions.sources.has(m)) permissions.forget(); }),
} satisfies Feature;
