// Job hooks (Nautobot's enqueue_job_hooks): for each change of an object whose content type and
// kind of change an enabled job hook names, a run of the hook's job, queued in the write's own
// transaction as webhooks are (a rolled-back write runs nothing; a committed one is run by a
// queue worker after the commit). Each run is given the change's record in the change log
// (its `object_change`) and runs as the user who made the change (the system, for a change of
// a system operation: Operations.system); what a hook's job changes
// is recorded as a job hook's and runs no hooks itself. The hooks a set of changes calls for
// are found by the change log's own statement, over the records it inserts (a RecordedLookup):
// two more statements record the results and queue the runs, only when there are any.
import { randomUUID } from "node:crypto";
import type { ContentTypesField } from "../../descriptor.js";
import type { ModelIndex } from "../../models.js";
import { SYSTEM_CONTEXT, type ChangeAction } from "../../operations/index.js";
import type { Db } from "../../kinds/types.js";
import type { RecordedLookup } from "../types.js";
import { enqueueMany } from "../../queue/tasks.js";
import { col, ident } from "../../query/sql.js";
import { labelOf } from "../../kinds/content-types.js";
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

/** The lookup of the job hooks an api's changes call for, when it has job hooks and a change log. */
export function jobHooks(index: ModelIndex): RecordedLookup | undefined {
  const role = index.api.jobs;
  const logKey = index.api.changeLog;
  if (!role?.hooks || !logKey) return undefined;
  const records = new JobRecords(index);
  const hooks = index.model(role.hooks);
  const log = index.model(logKey);
  const types = hooks.fields.find((f): f is ContentTypesField => f.kind === "contentTypes" && f.name === "content_types")!;
  const h = (field: string) => col("h", index.column(hooks, field));
  const j = (field: string) => col("jb", records.c(records.jobs, field));
  const r = types.registry;
  const t = types.through;
  // For each object, its last record of the write: a hook receiver's own changes call for none.
  const query = (flag: string, alias: string) => {
    const c = (field: string) => col(alias, index.column(log, field));
    return `SELECT ch.change, ch."user", ch.context, jb.id::text AS job, ${j("source")} AS source, ${j("module_name")} AS module_name, ` +
      `${j("job_class_name")} AS job_class_name, ${j("has_sensitive_variables")} AS has_sensitive_variables ` +
      `FROM (SELECT DISTINCT ON (${c("changed_object_id")}) ${col(alias, "id")}::text AS change, ${c("user")}::text AS "user", ${c("change_context")} AS context ` +
      `FROM inserted ${alias} WHERE ${c("change_context")} <> '${JOB_HOOK_CONTEXT}' ORDER BY ${c("changed_object_id")}, ${c("time")} DESC) ch ` +
      `CROSS JOIN ${ident(hooks.table)} h JOIN ${ident(records.jobs.table)} jb ON jb.id = ${h("job")} ` +
      `WHERE ${h("enabled")} AND ${h(flag)} AND EXISTS (SELECT 1 FROM ${ident(t.table)} l JOIN ${ident(r.table)} r ON r.id = ${col("l", t.target)} ` +
      `WHERE ${col("l", t.source)} = h.id AND ${labelOf(r, "r")} = ?) ORDER BY ch.change, ${h("name")}`;
  };

  // Whether an enabled hook of a job names the content type and the kind of change.
  const may = (flag: string) =>
    `EXISTS (SELECT 1 FROM ${ident(hooks.table)} h JOIN ${ident(records.jobs.table)} jb ON jb.id = ${h("job")} ` +
    `WHERE ${h("enabled")} AND ${h(flag)} AND EXISTS (SELECT 1 FROM ${ident(t.table)} l JOIN ${ident(r.table)} r ON r.id = ${col("l", t.target)} ` +
    `WHERE ${col("l", t.source)} = h.id AND ${labelOf(r, "r")} = ?))`;

  async function enqueue(db: Db, found: Found[]): Promise<void> {
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
    query: (m, action, alias) => (m.features.changeLogged && m.key !== logKey ? { sql: query(FLAG[action], alias), bindings: [m.key] } : undefined),
    may: (m, action) => (m.features.changeLogged && m.key !== logKey ? { sql: may(FLAG[action]), bindings: [m.key] } : undefined),
    found: (db, rows) => enqueue(db, rows as unknown as Found[]),
  };
}
