// `armature upgrade`: what Nautobot's post_upgrade does that applies here, after the migrations
// and the job records' sync every command begins with: the content types of models this build
// no longer has removed (remove_stale_contenttypes), schedules of one run long past removed
// (Nautobot's remove_stale_scheduled_jobs, a command of its own there), and expired browser
// sessions removed (clearsessions, a profile's command). Each a system operation of the
// command: the deletes go through the store, change-logged and cascading as any delete.
import type { Knex } from "knex";
import type { ApiDescriptor, ContentTypeRegistry } from "../descriptor.js";
import { Engine } from "../engine.js";
import { Operations } from "../operations/index.js";
import { Schedules } from "../features/index.js";

/** Each API's content-type registry (found through a field that names it) and the labels of its models. */
function registries(apis: ApiDescriptor[]): Array<{ api: ApiDescriptor; registry: ContentTypeRegistry; labels: Set<string> }> {
  return apis.flatMap((api) => {
    const registry = api.models.flatMap((m) => m.fields).map((f) => (f.kind === "contentType" ? f.registry : undefined)).find((r) => r);
    return registry ? [{ api, registry, labels: new Set(api.models.map((m) => m.key.toLowerCase())) }] : [];
  });
}

/** Removes the registry rows naming no model of this build; gives a line naming them. */
export async function removeStaleContentTypes(db: Knex, apis: ApiDescriptor[]): Promise<string> {
  const removed: string[] = [];
  for (const { api, registry, labels } of registries(apis)) {
    const engine = new Engine(api, db);
    const model = api.models.find((m) => m.table === registry.table);
    if (!model) continue;
    await engine.operations.run(Operations.system("upgrade"), async (op) => {
      const rows = (await op.trx(registry.table).select("id", registry.appLabel, registry.model).orderBy("id")) as Array<Record<string, string>>;
      const stale = rows.filter((r) => !labels.has(`${r[registry.appLabel]}.${r[registry.model]}`));
      if (stale.length) await engine.store.remove(op, model, stale.map((r) => r.id));
      removed.push(...stale.map((r) => `${r[registry.appLabel]}.${r[registry.model]}`));
    });
  }
  return removed.length ? `stale content types removed: ${removed.join(", ")}` : "stale content types removed: none";
}

/** How long a schedule of one run is kept after its time: a month, as an operator reviews what ran. */
export const STALE_SCHEDULE_DAYS = 30;

/** Removes, in each API with job schedules, those of one run due more than `maxAgeDays` ago; gives a line saying how many. */
export async function removeStaleSchedules(db: Knex, apis: ApiDescriptor[], maxAgeDays = STALE_SCHEDULE_DAYS): Promise<string> {
  let removed = 0;
  for (const api of apis.filter((a) => a.jobs?.schedules)) removed += await new Schedules(new Engine(api, db)).removeStale(Operations.system("upgrade"), maxAgeDays);
  return `stale schedules removed (one run, due over ${maxAgeDays} days ago): ${removed}`;
}
