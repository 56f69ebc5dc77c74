// Loads fixture records (demo data) through the same store and validation as the API, so
// a fixture can only hold what a client could have written, and the same write features:
// they are recorded in the change log, call webhooks and job hooks, as the caller's
// operation's (a system one: Operations.system). Related objects are named by attribute
// dictionaries, exactly as in API requests.
import type { ApiDescriptor } from "./descriptor.js";
import { Engine } from "./engine.js";
import { ValidationError } from "./errors.js";
import { profiles } from "./profiles/index.js";
import type { WriteOperation } from "./operations/index.js";

/** A row named by its attributes. */
export interface FixtureRef { model: string; match: Record<string, unknown> }

export interface Fixture {
  /** Model key, `ipam.prefix`. */
  model: string;
  data: Record<string, unknown>;
  /**
   * Fields that hold a bare id of some model's row (a cable's termination ids), or a list of
   * them (a user's groups), by the attributes that name each row:
   * `{ <field>: { model: "<app>.<model>", match: {…} } }`.
   */
  ids?: Record<string, FixtureRef | FixtureRef[]>;
  /** The API version the record is written through (the newest by default), for fields an older one fills itself. */
  version?: string;
}

/** Loads `fixtures` in the operation `op` (all or none); rows owned by a requester are `userId`'s. */
export async function loadFixtures(op: WriteOperation, api: ApiDescriptor, fixtures: Fixture[], userId?: string): Promise<number> {
  const own = profiles[api.profile]?.loadFixtures;
  if (own) return own(op, api, fixtures, userId);
  const { index, store } = new Engine(api, op.trx);
  for (const f of fixtures) {
    try {
      const data = { ...f.data };
      const idOf = (ref: FixtureRef) => store.idOf(op, ref.model, ref.match);
      for (const [field, ref] of Object.entries(f.ids ?? {})) data[field] = Array.isArray(ref) ? await Promise.all(ref.map(idOf)) : await idOf(ref);
      await store.create(op, index.model(f.model), data, { version: f.version ?? api.versions.supported.at(-1)!, owner: userId, partial: false });
    } catch (err) {
      if (err instanceof ValidationError) throw new Error(`fixture ${f.model} ${JSON.stringify(f.data)}: ${JSON.stringify(err.errors)}`);
      throw err;
    }
  }
  return fixtures.length;
}
