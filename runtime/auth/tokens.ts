// Issuing and revoking API tokens in the model an API names as `auth.tokens`, through the
// Store so a token is validated and keyed like one created over the API. Columns are
// found through the descriptor; nothing here decides who may hold a token.
import type { Knex } from "knex";
import type { ModelDescriptor } from "../descriptor.js";
import type { ModelIndex } from "../models.js";
import type { Store } from "../store.js";
import type { WriteOperation } from "../operations/index.js";

export class Tokens {
  private readonly key: string;
  private readonly user: string;
  private readonly writeEnabled: string;
  private readonly expires: string;

  constructor(private readonly index: ModelIndex, private readonly store: Store, readonly model: ModelDescriptor) {
    const column = (name: string) => index.column(model, name);
    this.key = column("key");
    this.user = column("user");
    this.writeEnabled = column("write_enabled");
    this.expires = column("expires");
  }

  /** Creates a token for `userId` from API-shaped `data` and gives its key. */
  async issue(op: WriteOperation, userId: string, data: Record<string, unknown>): Promise<string> {
    const version = this.index.api.versions.supported.at(-1)!;
    const id = await this.store.create(op, this.model, data, { version, owner: userId, partial: false });
    return (await op.trx(this.model.table).select(this.key).where("id", id).first())[this.key];
  }

  /**
   * Removes the expired tokens whose description is `description` (the browser's sessions), as
   * `op`'s deletes: Django's clearsessions. Gives how many there were.
   */
  async removeExpired(op: WriteOperation, description: string): Promise<number> {
    const ids = await op.trx(this.model.table).pluck("id")
      .where(this.index.column(this.model, "description"), description).where(this.expires, "<", op.trx.fn.now()).orderBy("id");
    if (ids.length) await this.store.remove(op, this.model, ids);
    return ids.length;
  }

  /** A key of `userId` that can write and has not expired, if there is one. */
  async writableKey(db: Knex, userId: string): Promise<string | undefined> {
    const row = await db(this.model.table).select(this.key)
      .where(this.user, userId).where(this.writeEnabled, true)
      .where((q) => q.whereNull(this.expires).orWhere(this.expires, ">", db.fn.now()))
      .orderBy("id").first();
    return row?.[this.key];
  }

  /** Whether `key` is a token of `userId`. */
  async holds(db: Knex, userId: string, key: string): Promise<boolean> {
    return !!(await db(this.model.table).select("id").where(this.user, userId).where(this.key, key).first());
  }

  async revoke(db: Knex, key: string): Promise<void> {
    await db(this.model.table).where(this.key, key).del();
  }
}
