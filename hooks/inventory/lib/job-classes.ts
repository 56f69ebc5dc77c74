// API 1.2's view of jobs (Nautobot's JobClassSerializer and JobClassDetailSerializer): each
// installed job as its class, by class path, with its source's name and description, its
// variables' types and its latest finished result, nested or in full.
import { type ActionEvent, classPathOf, JobRecords, TERMINAL, type JobRow } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";

/** Each job's latest finished result, by class path (the result's name). */
async function latestResults(e: ActionEvent, jobs: JobRow[]): Promise<Map<string, string>> {
  const { table, columns } = tables.extras.jobresult;
  const rows: Array<{ id: string; name: string }> = await e.db(table)
    .distinctOn(columns.name).select("id", `${columns.name} as name`)
    .whereIn(columns.name, jobs.map(classPathOf)).whereIn(columns.status, TERMINAL)
    .orderBy([{ column: columns.name }, { column: columns.created, order: "desc" }]);
  return new Map(rows.map((r) => [r.name, r.id]));
}

/** The jobs as classes, their results `nested` (the list) or in `full` (one job). */
export async function jobClasses(e: ActionEvent, jobs: JobRow[], shape: "nested" | "full", results?: Map<string, string>): Promise<Array<Record<string, unknown>>> {
  const latest = results ?? await latestResults(e, jobs);
  const shown = await e.read(jobs.map((j) => ({ model: "extras.job", id: j.id })), "nested");
  const resultsShown = await e.read(jobs.map((j) => ({ model: "extras.jobresult", id: latest.get(classPathOf(j)) ?? "" })).filter((r) => r.id), shape);
  const byId = new Map(resultsShown.filter((r) => r).map((r) => [String(r!.id), r]));
  return jobs.map((j, i) => {
    const source = j.source_values;
    const path = classPathOf(j);
    return {
      // The record's own URL, its id replaced by the class path.
      url: String(shown[i]?.url ?? "").replace(/[^/]+\/$/, `${path}/`),
      id: path,
      pk: j.id,
      name: source.name ?? j.name,
      description: source.description ?? j.description,
      test_methods: [],
      vars: Object.fromEntries(j.variables.map((v) => [v.name, v.type])),
      result: byId.get(latest.get(path) ?? "") ?? null,
    };
  });
}

/** The installed job of a class path the requester may `action`, or null. */
export async function jobByClassPath(e: ActionEvent, action: string): Promise<JobRow | null> {
  const { source, module, class: className } = e.path;
  const job = await new JobRecords(e.engine.index).byClassPath(e.db, `${source}/${module}/${className}`, e.permitted(e.model, action, "t0"));
  return job?.installed ? job : null;
}
