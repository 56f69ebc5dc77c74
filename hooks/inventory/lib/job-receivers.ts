// The job a job hook or a job button names, when it is the kind of receiver they need
// (Nautobot's limit_choices_to on their `job` foreign keys).
import { type HookDb, col, ident } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";

const J = tables.extras.job.columns;

/** The job `id` with its name, when its record says it is this kind of receiver; else null. */
export async function receiverJob(db: HookDb, id: string, kind: "is_job_hook_receiver" | "is_job_button_receiver"): Promise<{ id: string; name: string } | null> {
  const { rows } = await db.raw(`SELECT j.id::text AS id, ${col("j", J.name)} AS name FROM ${ident(tables.extras.job.table)} j WHERE j.id = ? AND ${col("j", J[kind])}`, [id]);
  return rows[0] ?? null;
}
