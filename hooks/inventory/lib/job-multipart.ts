// A run request sent as multipart/form-data, as Nautobot's _run_job reads one through its
// JobMultiPartInputSerializer: `_commit`, `_task_queue` and the `_schedule_*` fields are the
// run's settings, every other field and every file is the job's data (a file as its text, as a
// FileVar takes it here). Gives the body a JSON request would have sent, for the same checks.
import { ValidationError, type FieldErrors, type ActionEvent } from "../../../runtime/hooks.js";

type Form = NonNullable<ActionEvent["form"]>;

/** DRF's BooleanField: what it reads as true and as false. */
const TRUE = new Set(["1", "true", "True", "TRUE", "t", "T", "yes", "Yes", "YES", "y", "Y", "on", "On", "ON"]);
const FALSE = new Set(["0", "false", "False", "FALSE", "f", "F", "no", "No", "NO", "n", "N", "off", "Off", "OFF"]);

/** Nautobot's JobExecutionType values. */
const INTERVALS = ["immediately", "future", "hourly", "daily", "weekly", "custom"];

const SCHEDULE = ["_schedule_name", "_schedule_start_time", "_schedule_interval", "_schedule_crontab"];

export function runBodyOfForm(form: Form): Record<string, unknown> {
  const { fields, files } = form;
  const errors: FieldErrors = {};
  const body: Record<string, unknown> = {};
  if ("_commit" in fields) {
    if (TRUE.has(fields._commit)) body.commit = true;
    else if (FALSE.has(fields._commit)) body.commit = false;
    else errors._commit = ["Must be a valid boolean."];
  }
  if ("_task_queue" in fields) body.task_queue = fields._task_queue.trim();
  const interval = fields._schedule_interval;
  if (interval !== undefined && !INTERVALS.includes(interval)) errors._schedule_interval = [`"${interval}" is not a valid choice.`];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  if (SCHEDULE.some((k) => k in fields)) {
    body.schedule = Object.fromEntries(SCHEDULE.filter((k) => k in fields).map((k) => [k.slice("_schedule_".length), fields[k]]));
  }
  const data: Record<string, unknown> = Object.fromEntries(Object.entries(fields).filter(([k]) => !["_commit", "_task_queue", ...SCHEDULE].includes(k)));
  for (const [name, file] of Object.entries(files)) data[name] = file.content.toString("utf8");
  body.data = data;
  return body;
}
