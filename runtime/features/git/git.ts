// The `git` binary, as Nautobot's GitRepo drives GitPython (which runs the same binary): a
// repository's branch fetched into a bare clone of its own under the Git root, and each commit
// checked out once into a folder named by its hash, never changed afterwards. Code imported
// from such a folder is the code of that commit: a later sync imports a new folder, and a
// worker finds the commit a sync recorded whether or not it ran the sync. Credentials reach
// git through its environment only (never its arguments, which other local users can list,
// nor the clone's config on disk), and every message that comes back is stripped of them.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";

/** A repository's remote and the credentials it is read with (a secrets group's HTTP username and token). */
export interface Remote {
  url: string;
  branch: string;
  username?: string;
  token?: string;
}

/** What git refused, its message without credentials. */
export class GitError extends Error {}

/** The URL with the credentials in it, as Nautobot puts them: `//user:token@` (each percent-encoded), or `//token@`; a file URL takes none. */
export function credentialedUrl(r: Remote): string {
  if (!r.token || r.url.includes(r.token) || r.url.startsWith("file:")) return r.url;
  const who = r.username ? `${encodeURIComponent(r.username)}:${encodeURIComponent(r.token)}` : encodeURIComponent(r.token);
  return r.url.replace("//", `//${who}@`);
}

/** A message with every form of the credentials masked. */
function scrub(text: string, r: Remote): string {
  let out = text.split(credentialedUrl(r)).join(r.url);
  for (const secret of [r.token, r.token && encodeURIComponent(r.token)]) {
    if (secret) out = out.split(secret).join("********");
  }
  return out;
}

function git(args: string[], r: Remote, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("git", args, {
      // Never a prompt for credentials (a sync would hang), and no transport but the web's and the file system's.
      env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "", GIT_ALLOW_PROTOCOL: "http:https:file", LC_ALL: "C", ...env },
      maxBuffer: 16 * 1024 * 1024,
    }, (err, stdout, stderr) => {
      if (err) reject(new GitError(scrub(stderr.trim() || err.message, r)));
      else resolve(stdout.trim());
    });
  });
}

/** A repository's folder under the Git root: by id, so that renaming it moves nothing. */
const home = (root: string, key: string) => join(root, key);
const bare = (root: string, key: string) => join(home(root, key), "repo.git");

/**
 * Fetches the remote's branches into the repository's bare clone (made on first use); gives
 * the hash of the branch's head. A branch the remote lacks is refused in Nautobot's words.
 */
export async function fetchBranch(root: string, key: string, r: Remote): Promise<string> {
  const dir = bare(root, key);
  if (!existsSync(join(dir, "HEAD"))) {
    await mkdir(home(root, key), { recursive: true });
    await git(["init", "--quiet", "--bare", dir], r);
  }
  // The remote, credentials included, as configuration given through the environment.
  await git(["--git-dir", dir, "fetch", "--quiet", "--prune", "--no-tags", "origin"], r, {
    GIT_CONFIG_COUNT: "2",
    GIT_CONFIG_KEY_0: "remote.origin.url", GIT_CONFIG_VALUE_0: credentialedUrl(r),
    GIT_CONFIG_KEY_1: "remote.origin.fetch", GIT_CONFIG_VALUE_1: "+refs/heads/*:refs/remotes/origin/*",
  });
  try {
    return await git(["--git-dir", dir, "rev-parse", "--verify", "--quiet", `refs/remotes/origin/${r.branch}^{commit}`], r);
  } catch {
    throw new GitError(`Please create branch '${r.branch}' in upstream and try again. If this is a new repo, please add a commit before syncing.`);
  }
}

/** The folder holding commit `sha` of the repository, checked out on first use (fetching it, when the clone lacks it). */
export async function checkout(root: string, key: string, sha: string, remote: () => Promise<Remote>): Promise<string> {
  if (!/^[0-9a-f]{40,64}$/.test(sha)) throw new GitError(`Not a commit hash: ${sha}`);
  const dir = join(home(root, key), "commits", sha);
  if (existsSync(dir)) return dir;
  const r = await remote();
  const has = () => git(["--git-dir", bare(root, key), "cat-file", "-e", `${sha}^{commit}`], r).then(() => true, () => false);
  if (!existsSync(join(bare(root, key), "HEAD")) || !(await has())) {
    await fetchBranch(root, key, r);
    if (!(await has())) throw new GitError(`Commit ${sha} is not in branch ${r.branch} of the remote`);
  }
  // Checked out aside, then moved into place in one step: a reader sees the whole commit or none.
  const work = `${dir}.${randomUUID()}`;
  await mkdir(work, { recursive: true });
  try {
    await git(["--git-dir", bare(root, key), "--work-tree", work, "checkout", "--quiet", "--force", sha, "--", "."], r, { GIT_INDEX_FILE: `${work}.index` });
    await rename(work, dir).catch((err) => {
      if (!existsSync(dir)) throw err;
    });
  } finally {
    await rm(work, { recursive: true, force: true });
    await rm(`${work}.index`, { force: true });
  }
  return dir;
}
