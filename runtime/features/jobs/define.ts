// What a job module imports: `job()` to declare a job, `vars` to declare the variables it
// takes, and the types of what its `run` is given. Nautobot's Job class and script variables
// as plain data: a module of the jobs folder exports jobs by name, and that name is the job's
// class name in its class path (`local/<module>/<Export>`). `jobHookReceiver()` and
// `jobButtonReceiver()` declare Nautobot's JobHookReceiver and JobButtonReceiver: jobs run by
// job hooks and job buttons with the object they are about. Nothing here touches a database.
import type { Knex } from "knex";

/** A variable as a job declares it; `T` is the type of its value in the data `run` is given. */
export interface Variable<T = unknown> {
  /** Nautobot's variable class: `StringVar`, `ObjectVar`, … (the variables endpoint shows it). */
  type: VariableType;
  label?: string;
  /** Help text shown with the variable (Nautobot's `description`, the form's `help_text`). */
  description?: string;
  default?: unknown;
  /** Whether the variable must be given (default true; never for a BooleanVar). */
  required: boolean;
  /** StringVar: bounds of its length and a pattern its value must match. */
  minLength?: number;
  maxLength?: number;
  regex?: string;
  /** IntegerVar: bounds of its value. */
  minValue?: number;
  maxValue?: number;
  /** ChoiceVar, MultiChoiceVar: the `[value, label]` pairs it takes. */
  choices?: Array<[string, string]>;
  /** ObjectVar, MultiObjectVar: the model (`dcim.device`), and the list filters its objects must meet. */
  model?: string;
  queryParams?: Record<string, string | string[]>;
  /** IPNetworkVar: bounds of the prefix length. */
  minPrefixLength?: number;
  maxPrefixLength?: number;
  /** Never set: carries the value's type for `run`'s data. */
  readonly value?: T;
}

export type VariableType =
  | "StringVar" | "TextVar" | "IntegerVar" | "BooleanVar" | "ChoiceVar" | "MultiChoiceVar" | "ObjectVar" | "MultiObjectVar"
  | "IPAddressVar" | "IPAddressWithMaskVar" | "IPNetworkVar" | "FileVar";

/** What every variable takes (Nautobot's ScriptVariable arguments). */
export interface VariableOptions {
  label?: string;
  description?: string;
  default?: unknown;
  required?: boolean;
}

/** An object as the API shows it in full (latest version), as ObjectVar values and reads are given. */
export type ApiObject = Record<string, unknown> & { id: string; display?: string; url?: string };

const variable = <T>(type: VariableType, opts: VariableOptions & Partial<Variable>): Variable<T> =>
  ({ ...opts, type, required: opts.required ?? true }) as Variable<T>;

/** The variable kinds, named as Nautobot's classes are (`vars.string` is a StringVar). */
export const vars = {
  string: (o: VariableOptions & { minLength?: number; maxLength?: number; regex?: string } = {}) => variable<string>("StringVar", o),
  text: (o: VariableOptions = {}) => variable<string>("TextVar", o),
  integer: (o: VariableOptions & { minValue?: number; maxValue?: number } = {}) => variable<number>("IntegerVar", o),
  /** Never required, as Nautobot's BooleanVar: a value left out is false. */
  boolean: (o: Omit<VariableOptions, "required"> = {}) => ({ ...variable<boolean>("BooleanVar", o), required: false }),
  choice: (choices: Array<[string, string]>, o: VariableOptions = {}) => variable<string>("ChoiceVar", { ...o, choices }),
  multiChoice: (choices: Array<[string, string]>, o: VariableOptions = {}) => variable<string[]>("MultiChoiceVar", { ...o, choices }),
  /** One object of `model` (`dcim.device`), given by id or by attributes; `queryParams` are list filters it must meet. */
  object: (model: string, o: VariableOptions & { queryParams?: Record<string, string | string[]> } = {}) => variable<ApiObject>("ObjectVar", { ...o, model }),
  multiObject: (model: string, o: VariableOptions & { queryParams?: Record<string, string | string[]> } = {}) => variable<ApiObject[]>("MultiObjectVar", { ...o, model }),
  /** An address without a mask (`192.0.2.1`), given to `run` in canonical text. */
  ipAddress: (o: VariableOptions = {}) => variable<string>("IPAddressVar", o),
  /** An address with a mask (`192.0.2.1/24`). */
  ipAddressWithMask: (o: VariableOptions = {}) => variable<string>("IPAddressWithMaskVar", o),
  /** A network (`192.0.2.0/24`): its host bits must be zero. */
  ipNetwork: (o: VariableOptions & { minPrefixLength?: number; maxPrefixLength?: number } = {}) => variable<string>("IPNetworkVar", o),
  /** A file's contents as text: in a JSON run request, the text; in a multipart/form-data one, the file uploaded. */
  file: (o: VariableOptions = {}) => variable<string>("FileVar", o),
};

/** The data `run` is given for these variables: each value, or null for one left out. */
export type DataOf<V extends Record<string, Variable>> = { [K in keyof V]: V[K] extends Variable<infer T> ? T | null : never };

/** An object a log line is about: shown by its `display`, linked by its `url`. */
export type Loggable = { display?: unknown; url?: unknown } & Record<string, unknown>;

/** Filters as a list endpoint takes them (`{ site: "ams1", status: ["active", "planned"] }`). */
export type Filters = Record<string, string | number | boolean | Array<string | number | boolean>>;

/**
 * What `run` is given besides its data. Logs are stored at once, apart from the job's writes,
 * so they are read while the job runs and kept when its writes are rolled back. Reads and
 * writes go through the API's engine as the user who ran the job: the same validation, object
 * permissions, change records (carrying the job result's id as their request id) and webhooks
 * as a request of that user; all of them are one transaction, kept only when the job ends well
 * and `commit` is true.
 */
export interface JobContext {
  /** false: a dry run, whose writes are rolled back at its end. */
  readonly commit: boolean;
  /** The job result's id: the request id of every change the job makes. */
  readonly resultId: string;
  /** Who ran the job; a job hook of a change the system made runs as the system (no id, `system`). */
  readonly user: { id: string | null; username: string };
  /** Nautobot's log levels: `log_debug` is its `default` level; a failure marks the run failed. */
  log_debug(message: string): Promise<void>;
  log_info(message: string): Promise<void>;
  log_info(obj: Loggable | null, message?: string): Promise<void>;
  log_success(message: string): Promise<void>;
  log_success(obj: Loggable | null, message?: string): Promise<void>;
  log_warning(message: string): Promise<void>;
  log_warning(obj: Loggable | null, message?: string): Promise<void>;
  log_failure(message: string): Promise<void>;
  log_failure(obj: Loggable | null, message?: string): Promise<void>;
  /** Objects of a model (`dcim.device`) the user may view, in full, filtered as its list endpoint filters. */
  list(model: string, filters?: Filters): Promise<ApiObject[]>;
  /** One object by id, or the one object the filters select; null when there is none. */
  get(model: string, idOrFilters: string | Filters): Promise<ApiObject | null>;
  /** Creates an object from a body as the API takes it; gives it in full. */
  create(model: string, body: Record<string, unknown>): Promise<ApiObject>;
  /** Changes the fields given (as a PATCH does); gives the object in full. */
  update(model: string, id: string, body: Record<string, unknown>): Promise<ApiObject>;
  delete(model: string, id: string): Promise<void>;
  /** The job's transaction, for reads no filter says (its writes skip validation, permissions and change records). */
  readonly db: Knex.Transaction;
}

/** Nautobot's Job.Meta. */
export interface JobOptions {
  /** Default: the export's name. */
  name?: string;
  /** Default: the module's `grouping` export, else its file name. */
  grouping?: string;
  description?: string;
  /** Whether a run commits unless told otherwise (default true). */
  commitDefault?: boolean;
  hidden?: boolean;
  /** A read-only job never commits, and its runs say nothing of reverted changes. */
  readOnly?: boolean;
  approvalRequired?: boolean;
  /** Whether its data may hold secrets (default true, as Nautobot's): its results then keep no `job_kwargs`. */
  hasSensitiveVariables?: boolean;
  softTimeLimit?: number;
  timeLimit?: number;
  taskQueues?: string[];
}

/** Nautobot's Job.Meta, the variables the job takes, and its `run`. */
export interface JobSpec<V extends Record<string, Variable>> extends JobOptions {
  variables?: V;
  /** The job's work; what it gives is kept as the result's output. */
  run(data: DataOf<V>, ctx: JobContext): unknown;
}

const JOB = Symbol.for("armature.job");

/** Which receiver a job is: run by job hooks, or by job buttons (its record's `is_job_hook_receiver`, `is_job_button_receiver`). */
export type ReceiverKind = "jobHook" | "jobButton";

/** A job, as a module of the jobs folder exports it. */
export type Job = JobSpec<Record<string, Variable>> & { readonly [JOB]: true; readonly receiver?: ReceiverKind };

/** Declares a job: `export const MyJob = job({ name: "…", variables: { … }, async run(data, ctx) { … } })`. */
export function job<V extends Record<string, Variable>>(spec: JobSpec<V>): Job {
  return { ...spec, [JOB]: true } as unknown as Job;
}

/** Whether an export is a job. */
export const isJob = (value: unknown): value is Job => typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[JOB] === true;

/**
 * Stands for the api's change-log model in a variable's `model` (the object change a job hook
 * receiver is given): the job records name the model itself.
 */
export const CHANGE_LOG_MODEL = "@changeLog";

/**
 * How a receiver reads the object it is about whatever the user may view, as Nautobot's
 * receivers are given it (model instances, not a view of them): what the runner's context
 * gives a receiver besides JobContext.
 */
export const READ_ANY = Symbol.for("armature.job.readAny");
type ReceiverContext = JobContext & { [READ_ANY](model: string, id: string): Promise<ApiObject | null> };

/** A change's kind, as its object change records it. */
export type ChangeKind = "create" | "update" | "delete";

/** Nautobot's JobHookReceiver: what runs for each change a job hook is for. */
export interface JobHookReceiverSpec extends JobOptions {
  /**
   * `change`: the object change, as the API shows it in full; `action`: its kind;
   * `changedObject`: the object as it is now, in full, or null once deleted. What it gives is
   * kept as the result's output.
   */
  receiveJobHook(change: ApiObject, action: ChangeKind, changedObject: ApiObject | null, ctx: JobContext): unknown;
}

/** Nautobot's JobButtonReceiver: what runs for the object a job button was pressed on. */
export interface JobButtonReceiverSpec extends JobOptions {
  /** `obj`: the object, as the API shows it in full. What it gives is kept as the result's output. */
  receiveJobButton(obj: ApiObject, ctx: JobContext): unknown;
}

const choiceValue = (v: unknown): unknown => (v && typeof v === "object" && "value" in v ? (v as { value: unknown }).value : v);

/**
 * Declares a job-hook receiver: its one variable is the object change (Nautobot's
 * `object_change` ObjectVar), which job hooks give it; the object changed is read as it is now.
 */
export function jobHookReceiver(spec: JobHookReceiverSpec): Job {
  const { receiveJobHook, ...options } = spec;
  return {
    ...options,
    variables: { object_change: vars.object(CHANGE_LOG_MODEL) },
    async run(data: Record<string, unknown>, ctx: JobContext) {
      const change = data.object_change as ApiObject;
      const type = String(change.changed_object_type ?? "");
      const id = String(change.changed_object_id ?? "");
      const action = choiceValue(change.action) as ChangeKind;
      const changed = action === "delete" ? null : await (ctx as ReceiverContext)[READ_ANY](type, id);
      return receiveJobHook(change, action, changed, ctx);
    },
    receiver: "jobHook",
    [JOB]: true,
  } as unknown as Job;
}

/**
 * Declares a job-button receiver: its variables are the object's id and model
 * (`object_pk`, `object_model_name` as `app_label.model`), which a button's run gives it.
 */
export function jobButtonReceiver(spec: JobButtonReceiverSpec): Job {
  const { receiveJobButton, ...options } = spec;
  return {
    ...options,
    variables: { object_pk: vars.string(), object_model_name: vars.string() },
    async run(data: Record<string, unknown>, ctx: JobContext) {
      const model = String(data.object_model_name);
      const obj = await (ctx as ReceiverContext)[READ_ANY](model, String(data.object_pk));
      // As Nautobot's `model.objects.get(pk=…)` fails, the run ends errored.
      if (!obj) throw new Error(`no ${model} has the id ${String(data.object_pk)}`);
      return receiveJobButton(obj, ctx);
    },
    receiver: "jobButton",
    [JOB]: true,
  } as unknown as Job;
}
