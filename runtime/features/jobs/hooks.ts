// Job hooks (Nautobot's enqueue_job_hooks): for each change of an object whose content type and
// kind of change an enabled job hook names, a run of the hook's job, queued in the write's own
// transaction as webhooks are (a rolled-back write runs nothing; a committed one is run by a
// queue worker after the commit). Each run is given the change's record in the change log
// (its `object_change`) and runs as the user who made the change (the system, for a change of
// a system operation: Operations.system); what a hook's job changes
// is recorded as a job hook's and runs no hooks itself. One statement finds, for a set of
// rows, their change records and the hooks for them; two more record the results and queue
// the runs, only when there are any.
import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import type { ContentTypesField, ModelDescriptor } from "../../descriptor.js";
import type { ModelIndex } from "../../models.js";
import { SYSTEM_CONTEXT, type ChangeAction, type WriteFeature, type Written } from "../../operations/index.js";
import { enqueueMany } from "../../queue/tasks.js";
import { col, ident } from "../../query/sql.js";
import { labelOf } from "../../kinds/content-types.js";
import { requestUuid } from "../changes/index.js";
import { classPathOf, JobRecords } from "./records.js";
import { JOB_TASK, type JobTask } from "./runs.js";

/** Nautobot's CONTEXT_JOB_HOOK: the change context of a hook receiver's own changes. */
export const JOB_HOOK_CONTEXT = "job-hook";

const FLAG: Record<ChangeAction, string> = { create: "type_create", update: "type_update", delete: "type_delete" };

interface Found {
  change: string;
  user: string | null;
  context: string;
  job: string;
  source: string;
  module_name: string;
  job_class_name: string;
  has_sensitive_variables: boolean;
}

/** The write feature of an api with job hooks and a change log; none otherwise. */
export function jobHooks(index: ModelIndex): WriteFeature | undefined {
  const role = index.api.jobs;
  const logKey = index.api.changeLog;
  if (!role?.hooks || !logKey) return undefined;
  const records = new JobRecords(index);
  const hooks = index.model(role.hooks);
  const log = index.model(logKey);
  const types = hooks.fields.find((f): f is ContentTypesField => f.kind === "contentTypes" && f.name === "content_types")!;
  const h = (field: string) => col("h", index.column(hooks, field));
  const c = (field: string) => col("c", index.column(log, field));
  const j = (field: string) => col("jb", records.c(records.jobs, field));
  const r = types.registry;
  const t = types.through;
  // For each object, its last record of this kind of change in the request that made it.
  const query = (flag: string) =>
    `WITH ch AS (SELECT DISTINCT ON (${c("changed_object_id")}) c.id::text AS change, ${c("user")}::text AS "user", ${c("change_context")} AS context FROM ${ident(log.table)} c ` +
    `WHERE ${c("changed_object_type")} = ? AND ${c("action")} = ? AND ${c("request_id")} = ANY(?::uuid[]) AND ${c("changed_object_id")}::text = ANY(?::text[]) ` +
    `ORDER BY ${c("changed_object_id")}, ${c("time")} DESC) ` +
    `SELECT ch.change, ch."user", ch.context, jb.id::text AS job, ${j("source")} AS source, ${j("module_name")} AS module_name, ${j("job_class_name")} AS job_class_name, ` +
    `${j("has_sensitive_variables")} AS has_sensitive_variables FROM ch ` +
    `CROSS JOIN ${ident(hooks.table)} h JOIN ${ident(records.jobs.table)} jb ON jb.id = ${h("job")} ` +
    `WHERE ${h("enabled")} AND ${h(flag)} AND EXISTS (SELECT 1 FROM ${ident(t.table)} l JOIN ${ident(r.table)} r ON r.id = ${col("l", t.target)} ` +
    `WHERE ${col("l", t.source)} = h.id AND ${labelOf(r, "r")} = ?) ORDER BY ch.change, ${h("name")}`;

  async function enqueue(db: Knex.Transaction | Knex, m: ModelDescriptor, action: ChangeAction, rows: Written): Promise<void> {
    const made = rows.filter((row) => row.actor.context !== JOB_HOOK_CONTEXT);
    if (!made.length) return;
    const requests = [...new Set(made.map((row) => requestUuid(row.actor.requestId)))];
    const found: Found[] = (await db.raw(query(FLAG[action]), [m.key, action, requests, made.map((row) => String(row.id)), m.key])).rows;
    if (!found.length) return;
    const res = records.results;
    const runs = found.map((f) => {
      const data = { object_change: f.change };
      return { f, id: randomUUID(), data, kwargs: f.has_sensitive_variables ? null : { data, commit: true, task_queue: null } };
    });
    await db(res.table).insert(runs.map(({ f, id, kwargs }) => ({
      id,
      [records.c(res, "name")]: classPathOf(f),
      [records.c(res, "job_model")]: f.job,
      [records.c(res, "obj_type")]: records.jobs.key,
      [records.c(res, "status")]: "pending",
      [records.c(res, "user")]: f.user,
      [records.c(res, "job_id")]: randomUUID(),
      [records.c(res, "job_kwargs")]: kwargs === null ? null : JSON.stringify(kwargs),
    })));
    // A system operation's change: its run is the system's too (a result with no user is otherwise a gone user's).
    await enqueueMany(db, runs.map(({ f, id, data }) => ({
      kind: JOB_TASK, payload: { api: index.api.name, result: id, data, commit: true, ...(f.user === null && f.context === SYSTEM_CONTEXT ? { system: true as const } : {}) } satisfies JobTask,
    })));
  }

  return {
    watches: (m) => m.features.changeLogged && m.key !== logKey,
    savedAtEnd: ({ trx }, m, action, rows) => enqueue(trx, m, action, rows),
    deleting: ({ trx, actor }, m, ids) => enqueue(trx, m, "delete", ids.map((id) => ({ id, actor }))),
  };
}
