// Nautobot's GitRepository: its serializer's checks (a remote URL of a scheme the sync can
// fetch, provided contents among those registered), its `sync` action (GitRepositoryViewSet.sync:
// the requester needs the change permission; a sync is queued as a job result named after the
// repository), and the model's registration as a source of the Git feature (runtime/features/git/),
// with what it provides besides jobs (lib/git-contents.ts). Credentials are the secrets group's
// HTTP(S) token and username.
import {
  HttpError, notFound, Refusal, type ActionEvent, type DeletingEvent, type HookDb, type SaveEvent, type SavedEvent, contentChoices, queueSync,
  registerGitSource, type GitSource, type RepositoryRecord,
} from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { ExtrasGitRepository } from "../../../generated/inventory/rows.js";
import { configContexts, configContextSchemas, exportTemplates, OWNER_TYPE } from "../lib/git-contents.js";
import { groupSecret, secretValue } from "../lib/secrets.js";

/** The model's table, read when first used (the hook module is loaded by the generator, before the tables are). */
const names = () => tables.extras.gitrepository;

/** The schemes the sync fetches: Nautobot's http and https, and the file system's (these machines reach no Git host). */
const SCHEMES = ["http:", "https:", "file:"];

function validUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (!SCHEMES.includes(url.protocol)) return false;
  return url.protocol === "file:" ? url.pathname.length > 1 && (url.hostname === "" || url.hostname === "localhost") : url.hostname !== "";
}

/** A repository as the sync reads it, with the secrets group its credentials come from. */
type Repository = RepositoryRecord & { secretsGroup: string | null };

function rowOf(r: Record<string, any> | undefined): Repository | null {
  if (!r) return null;
  const provided = Array.isArray(r.provided_contents) ? r.provided_contents.map(String) : [];
  return { id: r.id, name: r.name, slug: r.slug, remoteUrl: r.remote_url, branch: r.branch, currentHead: r.current_head ?? "", providedContents: provided, secretsGroup: r.secrets_group ?? null };
}

const select = (db: HookDb) => {
  const { table, columns: c } = names();
  return db(table).first(
    "id", `${c.name} as name`, `${c.slug} as slug`, `${c.remote_url} as remote_url`, `${c.branch} as branch`, `${c.current_head} as current_head`,
    `${c.provided_contents} as provided_contents`, `${c.secrets_group} as secrets_group`,
  );
};

/** A secret of the group's HTTP(S) access, or undefined when the group has none of that type. */
async function httpSecret(db: HookDb, group: string, type: string): Promise<string | undefined> {
  const secret = await groupSecret(db, group, "HTTP(S)", type);
  if (!secret) return undefined;
  const found = await secretValue(secret);
  if (!found.ok) throw new Error(found.message);
  return found.value.trim();
}

const source: GitSource = {
  model: OWNER_TYPE,
  read: async (db, id) => rowOf(await select(db).where("id", id)),
  bySlug: async (db, slug) => rowOf(await select(db).where(names().columns.slug, slug)),
  async remote(db, repo) {
    const group = (repo as Repository).secretsGroup;
    const warnings: string[] = [];
    let token: string | undefined;
    let username: string | undefined;
    if (group) {
      token = await httpSecret(db, group, "token");
      username = await httpSecret(db, group, "username");
      if (!token) warnings.push("Repository has a secrets group assigned but is missing a 'token' secret of access type 'HTTP'.Falling through to legacy behaviour.");
    }
    return { remote: { url: repo.remoteUrl, branch: repo.branch, token, username }, warnings };
  },
  async setHead(db, id, sha) {
    const { table, columns } = names();
    await db(table).where("id", id).update({ [columns.current_head]: sha });
  },
  contents: [configContextSchemas, configContexts, exportTemplates],
};

registerGitSource(source);

export function beforeSave({ values, index }: SaveEvent<ExtrasGitRepository>): void {
  if ("remote_url" in values && !validUrl(String(values.remote_url))) throw new Refusal({ remote_url: "Enter a valid URL." });
  if (!("provided_contents" in values)) return;
  const given = values.provided_contents as unknown;
  if (given === null) throw new Refusal({ provided_contents: "This field may not be null." });
  // DRF's MultipleChoiceField: a list (a string is no list), each item one of the choices.
  if (!Array.isArray(given)) throw new Refusal({ provided_contents: `Expected a list of items but got type "${typeof given === "string" ? "str" : typeof given === "number" ? "int" : typeof given === "boolean" ? "bool" : "dict"}".` });
  const choices = new Set(contentChoices(source, index.api).map((x) => x.identifier));
  const wrong = given.find((x) => !choices.has(String(x)));
  if (wrong !== undefined) throw new Refusal({ provided_contents: `"${String(wrong)}" is not a valid choice.` });
  values.provided_contents = [...new Set(given.map(String))] as never;
}

/** A condition on job records (no alias): the Git jobs of the repository of `slug` (their module names start `<slug>/`). */
function jobsOf(slug: string): [string, string[]] {
  const c = tables.extras.job.columns;
  return [`${c.source} = 'git' AND left(${c.module_name}, ${slug.length + 1}) = ?`, [`${slug}/`]];
}

/** A renamed repository's jobs follow it: their module names (and so their class paths) take its new slug, as Nautobot's class_path does. */
export async function afterSave({ db, before, after }: SavedEvent<ExtrasGitRepository>): Promise<void> {
  if (!before || !after.slug || before.slug === after.slug) return;
  const { table, columns } = tables.extras.job;
  const [where, bindings] = jobsOf(before.slug);
  await db(table).whereRaw(where, bindings).update({ [columns.module_name]: db.raw(`? || substr(${columns.module_name}, ?)`, [after.slug, before.slug.length + 1]) });
}

/**
 * Nautobot's refresh of a deleted repository's contents: the config contexts and schemas it
 * owns go with it (their links cascade), and its jobs stay, not installed.
 */
export async function beforeDelete({ db, ids, rows }: DeletingEvent<ExtrasGitRepository>): Promise<void> {
  for (const owned of [tables.extras.configcontext, tables.extras.configcontextschema]) {
    await db(owned.table).where(owned.columns.owner_content_type, OWNER_TYPE).whereIn(owned.columns.owner_object_id, ids.map(String)).delete();
  }
  const { table, columns } = tables.extras.job;
  for (const repo of await rows()) {
    const [where, bindings] = jobsOf(repo.slug);
    await db(table).whereRaw(where, bindings).update({ [columns.installed]: false });
  }
}

async function sync(e: ActionEvent): Promise<{ message: string }> {
  const { permissions } = e.engine;
  if (permissions && e.actor.grants && !permissions.holds(e.actor.grants, e.model, "change")) {
    throw new HttpError(403, "This user does not have permission to make changes to Git repositories.");
  }
  const repo = await source.read(e.db, e.id!);
  if (!repo) throw notFound();
  await queueSync(e.engine, e.actor, OWNER_TYPE, repo);
  return { message: `Repository ${repo.name} sync job added to queue.` };
}

export const actions = { sync };
