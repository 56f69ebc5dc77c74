// Git repositories as data sources (Nautobot's datasources): a model's hook module registers
// the model as a source (`registerGitSource`: how its rows are read, where their credentials
// come from, and the contents they may provide), a sync request queues a task with a pending
// result (`queueSync`), and this feature's task runs it, as Nautobot's
// pull_git_repository_and_refresh_data: fetch the branch (git.ts), then refresh each content
// in one operation of the requester's, the result as request id. A sync that logs a failure,
// or throws, writes nothing: what the repository provided before stays as it was. The jobs a
// repository provides are this feature's own content (`jobsContent`); the workers find their
// code from the commit the database records (registerJobSource).
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Knex } from "knex";
import type { ApiDescriptor } from "../../descriptor.js";
import type { Engine } from "../../engine.js";
import { advisoryLock } from "../../db/locks.js";
import type { Actor, WriteOperation } from "../../operations/index.js";
import { enqueue } from "../../queue/tasks.js";
import { TaskFailure, type TaskContext, type TaskHandler } from "../../queue/worker.js";
import type { Feature, TaskSetting } from "../types.js";
import { importAll, type Catalog, type CatalogEntry } from "../jobs/catalog.js";
import { registerJobSource } from "../jobs/sources.js";
import type { Loggable } from "../jobs/define.js";
import { RunLog, type LogMode } from "../jobs/logs.js";
import { classPathOf, GIT_SOURCE, JobRecords, type JobRow, type LogLevel, type ResultStatus } from "../jobs/records.js";
import { checkout, fetchBranch, type Remote } from "./git.js";

export { GitError, credentialedUrl, type Remote } from "./git.js";

/** A repository row as the sync reads it. */
export interface RepositoryRecord {
  id: string;
  name: string;
  slug: string;
  remoteUrl: string;
  branch: string;
  currentHead: string;
  providedContents: string[];
}

/** What a content's refresh is given: the sync's savepoint, the checkout of the commit synced, and the result's log. */
export interface SyncContext {
  /** The sync's operation (a savepoint of it); `db` is its transaction. */
  op: WriteOperation;
  db: Knex.Transaction;
  engine: Engine;
  repository: RepositoryRecord;
  /** The commit's files. */
  dir: string;
  /** Whether the repository names this content among those it provides: when not, the refresh removes what it provided. */
  provides: boolean;
  /** The user who asked for the sync. */
  userId: string | null;
  /** A line of the result's log; a failure fails the sync. */
  log(level: LogLevel, grouping: string, message: string, obj?: Loggable | null): Promise<void>;
}

/** A kind of data a repository may provide (Nautobot's DatasourceContent). */
export interface Content {
  /** As `provided_contents` names it (`extras.job`). */
  identifier: string;
  name: string;
  /** Contents refresh in ascending weight. */
  weight: number;
  refresh(ctx: SyncContext): Promise<void>;
}

/** A model whose rows are Git repositories, as its hook module describes it. */
export interface GitSource {
  /** The model's key (`extras.gitrepository`). */
  model: string;
  read(db: Knex | Knex.Transaction, id: string): Promise<RepositoryRecord | null>;
  bySlug(db: Knex | Knex.Transaction, slug: string): Promise<RepositoryRecord | null>;
  /** The remote with its credentials, and warnings for the result's log. */
  remote(db: Knex | Knex.Transaction, repo: RepositoryRecord): Promise<{ remote: Remote; warnings: string[] }>;
  /** Records the commit synced (the row's `current_head`). */
  setHead(db: Knex.Transaction, id: string, sha: string): Promise<void>;
  contents: Content[];
}

const sources = new Map<string, GitSource>();

export function registerGitSource(source: GitSource): void {
  sources.set(source.model, source);
}

/** The queue task kind of a sync. */
export const GIT_SYNC_TASK = "git-sync";

/** Nautobot's name of the task a sync is (its pull_git_repository_and_refresh_data). */
export const SYNC_TASK_NAME = "nautobot.extras.datasources.git.pull_git_repository_and_refresh_data";

interface SyncTask { api: string; model: string; repository: string; result: string }

/** Records a pending result of a sync of `repository` for `actor` (named after it, about its model, as Nautobot's) and queues it; gives the result's id. */
export function queueSync(engine: Engine, actor: Actor, model: string, repository: { id: string; name: string }): Promise<string> {
  const records = new JobRecords(engine.index);
  return engine.operations.run(actor, async ({ trx }) => {
    const result = await records.createTaskResult(trx, repository.name, model, actor.userId);
    await enqueue(trx, GIT_SYNC_TASK, { api: engine.api.name, model, repository: repository.id, result } satisfies SyncTask);
    return result;
  });
}

/** Thrown through the sync's savepoint when it logged a failure: nothing it wrote is kept. */
const FAILED = Symbol("sync failed");

/** A duration as Python prints a timedelta (`0:00:01.234000`), as Nautobot's last line shows it. */
function duration(ms: number): string {
  const s = Math.floor(ms / 1000);
  const micro = String((ms % 1000) * 1000).padStart(6, "0");
  return `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}.${micro}`;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

class SyncRun {
  private readonly records: JobRecords;
  private readonly log: RunLog;
  private failures = 0;
  private userId: string | null = null;

  constructor(private readonly engine: Engine, private readonly source: GitSource, private readonly task: SyncTask, private readonly root: string, mode: LogMode, private readonly ctx: TaskContext) {
    this.records = new JobRecords(engine.index);
    this.log = new RunLog(this.records, task.result, mode, ctx.db);
  }

  private line(level: LogLevel, grouping: string, text: string, obj?: Loggable | null): Promise<void> {
    if (level === "failure") this.failures += 1;
    return this.log.write(level, grouping, text, obj);
  }

  async go(): Promise<{ detail: string }> {
    const db = this.ctx.db;
    if (!(await this.records.move(db, this.task.result, ["pending"], "running"))) {
      // Left running by a worker that died: it ends errored (its transaction never committed), and the sync is not run twice.
      const ended = await this.records.move(db, this.task.result, ["running"], "errored");
      if (ended) await this.line("failure", "main", "The worker running this sync stopped before it ended. Nothing it loaded was kept; it was not run again.");
      return { detail: ended ? "errored: its worker died while running it" : "already ended" };
    }
    const started = Date.now();
    const repo = await this.source.read(db, this.task.repository);
    let status: ResultStatus;
    if (!repo) {
      await this.line("failure", "main", `No GitRepository ${this.task.repository} found!`);
      status = "errored";
    } else {
      status = await this.sync(repo);
    }
    this.log.target = undefined;
    await this.line("info", "main", `Repository synchronization completed in ${duration(Date.now() - started)}`);
    await this.records.move(db, this.task.result, ["running"], status);
    return { detail: `${repo?.name ?? this.task.repository}: ${status}` };
  }

  private async sync(repo: RepositoryRecord): Promise<ResultStatus> {
    await this.line("default", "main", `Creating/refreshing local copy of Git repository "${repo.name}"...`);
    let dir: string;
    let sha: string;
    try {
      const { remote, warnings } = await this.source.remote(this.ctx.db, repo);
      for (const w of warnings) await this.line("warning", "main", w);
      sha = await fetchBranch(this.root, repo.id, remote);
      dir = await checkout(this.root, repo.id, sha, async () => remote);
      await this.line("success", "main", "Repository successfully refreshed");
      await this.line("info", "main", `The current Git repository hash is "${sha}"`);
    } catch (err) {
      await this.line("failure", "main", message(err));
      await this.line("failure", "main", `Error while refreshing ${repo.name}: ${message(err)}`);
      return "errored";
    }
    try {
      return await this.engine.operations.run(await this.actor(), (op) => this.refresh(op, repo, dir, sha), { attempts: 1 });
    } catch (err) {
      this.log.target = undefined;
      await this.line("failure", "main", `Error while refreshing ${repo.name}: ${message(err)}`);
      return "errored";
    }
  }

  /** Every content refreshed in one savepoint, kept only when none logged a failure. */
  private async refresh(op: WriteOperation, repo: RepositoryRecord, dir: string, sha: string): Promise<ResultStatus> {
    const { trx } = op;
    this.log.target = trx;
    // One load of a repository at a time: two would each create what the other did not find.
    await advisoryLock(trx, this.source.model, repo.id);
    // A content that threw errs the sync (Nautobot's STATUS_ERRORED); one that logged a failure fails it.
    const state = { errored: false };
    try {
      await this.engine.operations.savepoint(op, async (sp) => {
        this.log.enter(sp.trx);
        await this.source.setHead(sp.trx, repo.id, sha);
        await this.line("info", "main", `Refreshing data provided by ${repo.name}...`);
        const ctx = { op: sp, db: sp.trx, engine: this.engine, repository: { ...repo, currentHead: sha }, dir, userId: this.userId, log: this.line.bind(this) };
        for (const content of contentsOf(this.source, this.engine, this.root).sort((a, b) => a.weight - b.weight || a.name.localeCompare(b.name))) {
          await this.line("info", "main", `Refreshing ${content.name}...`);
          try {
            await this.engine.operations.savepoint(sp, (inner) => content.refresh({ ...ctx, op: inner, db: inner.trx, provides: repo.providedContents.includes(content.identifier) }));
          } catch (err) {
            await this.line("failure", "main", `Error while refreshing ${content.name}: ${message(err)}`);
            state.errored = true;
          }
        }
        await this.log.settled();
        if (this.failures) throw FAILED;
        await this.line("info", "main", `Data refresh from ${repo.name} complete!`);
      });
      await this.log.leave(trx, true);
    } catch (err) {
      await this.log.leave(trx, false);
      if (err !== FAILED) throw err;
      await this.line("warning", "main", "Nothing was changed: the data the repository provided before this sync is kept.");
      return state.errored ? "errored" : "failed";
    }
    return "completed";
  }

  /** The user who asked, as the operation's actor: the change records name them and the result. */
  private async actor(): Promise<Actor> {
    const { index } = this.engine;
    const result = await this.records.result(this.ctx.db, this.task.result);
    this.userId = result?.user ?? null;
    const users = index.model(index.api.auth!.users);
    const user = this.userId ? await this.ctx.db(users.table).where("id", this.userId).first(`${index.column(users, "username")} as username`) : undefined;
    return { userId: this.userId, username: user?.username ?? null, requestId: this.task.result, context: "job", contextDetail: SYNC_TASK_NAME };
  }
}

/**
 * Where job modules find `job` and `vars`: the package `@armature/jobs` in the Git root's
 * `node_modules`, which every checkout below it resolves, re-exporting this server's own
 * definitions. The root's `package.json` makes the modules ES modules.
 */
async function provideJobsPackage(root: string): Promise<void> {
  const pkg = join(root, "node_modules", "@armature", "jobs");
  if (existsSync(join(pkg, "index.js"))) return;
  const compiled = fileURLToPath(new URL("../jobs/define.js", import.meta.url));
  const define = existsSync(compiled) ? compiled : compiled.replace(/\.js$/, ".ts");
  await mkdir(pkg, { recursive: true });
  if (!existsSync(join(root, "package.json"))) await writeFile(join(root, "package.json"), `${JSON.stringify({ type: "module", private: true })}\n`);
  await writeFile(join(pkg, "package.json"), `${JSON.stringify({ name: "@armature/jobs", type: "module", main: "index.js" })}\n`);
  await writeFile(join(pkg, "index.js"), `export * from ${JSON.stringify(pathToFileURL(define).href)};\n`);
}

const imported = new Map<string, Promise<Catalog>>();

/** The jobs of a checkout's `jobs/` folder, named as Nautobot names a Git repository's; imported once per process and commit. */
async function jobsOf(root: string, dir: string, slug: string): Promise<Catalog> {
  const folder = join(dir, "jobs");
  // By slug too: a renamed repository's jobs have new class paths (the modules themselves are imported once).
  const key = `${folder}\0${slug}`;
  let catalog = imported.get(key);
  if (!catalog) {
    await provideJobsPackage(root);
    catalog = importAll([folder], { module: (m) => `${slug}/${m}`, classPath: (m, c) => `${GIT_SOURCE}.${slug}/${m}/${c}` });
    imported.set(key, catalog);
  }
  return catalog;
}

/** The jobs content of an API with jobs: named by the job model's key (`extras.job`), as Nautobot names contents by model. */
const jobsNamed = (api: ApiDescriptor) => (api.jobs ? [{ identifier: api.jobs.jobs.toLowerCase(), name: "jobs", weight: 300 }] : []);

/** The contents a repository of `source` may provide: the source's own, and jobs where its API has them (Nautobot's datasource choices). */
export function contentChoices(source: GitSource, api: ApiDescriptor): Array<{ identifier: string; name: string }> {
  return [...source.contents, ...jobsNamed(api)];
}

function contentsOf(source: GitSource, engine: Engine, root: string): Content[] {
  return [...source.contents, ...jobsNamed(engine.index.api).map((named) => jobsContent(named, root))];
}

/** The jobs a repository provides (Nautobot's refresh_git_jobs), on the Git root given. */
function jobsContent(named: { identifier: string; name: string; weight: number }, root: string): Content {
  return {
    ...named,
    async refresh(ctx) {
      const records = new JobRecords(ctx.engine.index);
      let catalog: Catalog = { jobs: new Map(), problems: [] };
      if (ctx.provides) {
        if (existsSync(join(ctx.dir, "jobs"))) catalog = await jobsOf(root, ctx.dir, ctx.repository.slug);
        else await ctx.log("warning", "jobs", "No `jobs` subdirectory found in Git repository");
      }
      const report = await records.refresh(ctx.db, catalog, { source: GIT_SOURCE, modulePrefix: `${ctx.repository.slug}/` });
      for (const problem of report.problems) await ctx.log("failure", "jobs", `Error in loading Jobs: ${problem}`);
      const created = new Set(report.created);
      for (const path of catalog.jobs.keys()) await ctx.log("success", "jobs", created.has(path) ? "Created Job record" : "Refreshed Job record", { display: path });
      for (const path of report.uninstalled) await ctx.log("warning", "jobs", "Marking Job record as no longer installed", { display: path });
    },
  };
}

/** The code of a Git repository's job: from the commit its repository's row records, checked out here if not yet. */
function gitJobs(root: string): (db: Knex, job: JobRow) => Promise<CatalogEntry | undefined> {
  return async (db, job) => {
    const slug = job.module_name.slice(0, job.module_name.indexOf("/"));
    for (const source of sources.values()) {
      const repo = await source.bySlug(db, slug);
      // Installed, so the last sync that succeeded found it at this commit.
      if (!repo?.currentHead) continue;
      const dir = await checkout(root, repo.id, repo.currentHead, async () => (await source.remote(db, repo)).remote);
      return (await jobsOf(root, dir, slug)).jobs.get(classPathOf(job));
    }
    return undefined;
  };
}

function handler({ config, apis, engineOf }: TaskSetting): TaskHandler {
  return async (payload, task) => {
    const run = payload as SyncTask;
    const api = apis.find((a: ApiDescriptor) => a.name === run.api && a.jobs);
    const source = sources.get(run.model);
    if (!api || !source) throw new TaskFailure(`no Git repositories of ${run.model} in API ${run.api} here`, { retry: false });
    return new SyncRun(engineOf(api), source, run, config.gitRoot, config.databaseUrl ? "apart" : "inTransaction", task).go();
  };
}

export const feature = {
  name: "git",
  tasks: (setting: TaskSetting): Record<string, TaskHandler> => {
    if (!sources.size) return {};
    registerJobSource(GIT_SOURCE, gitJobs(setting.config.gitRoot));
    return { [GIT_SYNC_TASK]: handler(setting) };
  },
} satisfies Feature;
