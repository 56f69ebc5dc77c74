// Nautobot's JobButton: its job must be a job-button receiver (the foreign key's
// limit_choices_to), and JobButtonRunView, which runs the button's job on one object, served
// here as the button's `run` action. As that view, it needs the permission to run jobs and
// queues the run at once (a disabled job's run ends `errored`, as run_job ends it); unlike
// that page, an object that does not exist, or is of a type the button is not for, is a 400.
import { forbidden, Refusal, type ActionEvent, type SaveEvent, JobRecords, queueRun, labelOf, linkedTypes, type ContentTypesField } from "../../../runtime/hooks.js";
import type { ExtrasJobButton } from "../../../generated/inventory/rows.js";
import { receiverJob } from "../lib/job-receivers.js";

export async function beforeSave({ db, values, before }: SaveEvent<ExtrasJobButton>): Promise<void> {
  const job = values.job ?? before?.job;
  if (job && !(await receiverJob(db, String(job), "is_job_button_receiver"))) throw new Refusal({ job: `job instance with id UUID('${String(job)}') does not exist.` });
}

/** The body's text field `name`, or the refusal DRF's CharField gives. */
function text(body: Record<string, unknown>, name: string, errors: Record<string, string>): string {
  const v = body[name];
  if (v === undefined) errors[name] = "This field is required.";
  else if (v === null) errors[name] = "This field may not be null.";
  else if (typeof v !== "string" && typeof v !== "number") errors[name] = "Not a valid string.";
  else if (String(v).trim() === "") errors[name] = "This field may not be blank.";
  else return String(v).trim();
  return "";
}

export const actions = {
  async run(e: ActionEvent): Promise<unknown> {
    const { engine } = e;
    const records = new JobRecords(engine.index);
    const grants = e.actor.grants;
    if (engine.permissions && grants && !engine.permissions.holds(grants, records.jobs, "run")) throw forbidden();
    const body = typeof e.body === "object" && e.body !== null && !Array.isArray(e.body) ? (e.body as Record<string, unknown>) : {};
    const errors: Record<string, string> = {};
    const pk = text(body, "object_pk", errors);
    const modelName = text(body, "object_model_name", errors).toLowerCase();
    if (Object.keys(errors).length) throw new Refusal(errors);
    const m = engine.index.byKey.get(modelName);
    if (!m) throw new Refusal({ object_model_name: `No model "${modelName}": give it as app_label.model (dcim.device).` });
    const types = e.model.fields.find((f): f is ContentTypesField => f.kind === "contentTypes")!;
    const { rows } = await e.db.raw(`SELECT 1 ${linkedTypes(types.through, types.registry, "?")} AND ${labelOf(types.registry, "r")} = ?`, [e.id, m.key]);
    if (!rows.length) throw new Refusal({ object_model_name: `This job button is not for ${m.key} objects.` });
    const seen = (await engine.store.existing(e.op, m, [pk])).length;
    if (!seen) throw new Refusal({ object_pk: `No ${m.key} with id ${pk}.` });
    const [button] = await e.db(e.model.table).where("id", e.id!).select(engine.index.column(e.model, "job") + " as job");
    const job = (await records.job(e.db, button.job))!;
    const data = { object_pk: pk, object_model_name: m.key };
    const result = await queueRun(engine, e.actor, job, { data, commit: true, kwargs: job.has_sensitive_variables ? null : { data, commit: true, task_queue: null } });
    const [shown] = await e.read([{ model: records.results.key, id: result }], "nested");
    return { job_result: shown };
  },
};
