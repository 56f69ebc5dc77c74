// The command line's grammar: every command with its options and help, and argv parsed
// against it (node:util parseArgs, strict). Gives the command with its checked values, or the
// text to print and the exit status: 0 for help, 2 for a command line it refuses. Reads no
// environment and touches no file or database, so a wrong command line costs nothing.
import { parseArgs } from "node:util";
import { EXCLUDABLE } from "../runtime/dump/format.js";

type Value = string | number | boolean | string[];

interface Option {
  /** The value's placeholder in the help (`N`, `NAME`); absent for a flag. */
  value?: string;
  help: string;
  required?: boolean;
  /** Turns the text given into the value, or throws why it is refused. */
  parse?: (text: string) => Value;
  /** May be given more than once; the value is then every text given, in order. */
  multiple?: boolean;
}

/** A positional argument: its placeholder in the help (`FILE`). */
interface Argument {
  name: string;
  help: string;
  required?: boolean;
}

interface Command {
  summary: string;
  /** What the command does, for its own help; the summary when absent. */
  description?: string;
  options: Record<string, Option>;
  /** The environment the command reads, for its own help. */
  environment?: string[];
  /** Positional arguments, in order; their values are under their names, lower-cased. */
  arguments?: Argument[];
}

function wholeNumber(min: number, max: number) {
  return (text: string): number => {
    const n = Number(text);
    if (!/^\d+$/.test(text) || n < min || n > max) throw new Error(`must be a whole number from ${min} to ${max}, not "${text}"`);
    return n;
  };
}

function nonEmpty(text: string): string {
  if (!text.trim()) throw new Error("must not be empty");
  return text;
}

const DATABASE = "DATABASE_URL (PostgreSQL; unset: embedded PGlite in DATA_DIR, default ./.data/pglite)";
const JOBS = "JOBS_ROOT (folders of job modules, separated by \":\"; default: the shipped jobs/)";
const SERVING = [
  DATABASE,
  "PORT (8080), HOST (127.0.0.1), PUBLIC_URL, WP_API_ROOT (/wp-json), BODY_LIMIT (1mb), CORS_ALLOWED_ORIGINS",
  "SHUTDOWN_TIMEOUT (30: seconds SIGTERM/SIGINT waits for requests in flight)",
  "LOG_REQUESTS (1 or 0: one JSON line per request on stdout), LOG_LEVEL (info)",
  "QUEUE_WORKER (1; 0: no queue worker in the server), QUEUE_* (docs/operating/settings.md)",
  JOBS,
];
const MEDIA = "MEDIA_ROOT (uploaded files; default: media beside the embedded database's folder)";
const exclude: Option = {
  value: "WHAT",
  help: `leave out ${EXCLUDABLE.map((e) => `\`${e}\``).join(" or ")} (the change log, the uploaded files); repeat or separate with commas`,
  multiple: true,
  parse: (text) => {
    if (!(EXCLUDABLE as readonly string[]).includes(text)) throw new Error(`must be one of ${EXCLUDABLE.join(", ")}, not "${text}"`);
    return text;
  },
};
const verbose: Option = { help: "name every migration applied, not just how many" };
const port: Option = { value: "N", help: "port to listen on, 0 for any free one (default: PORT, else 8080)", parse: wholeNumber(0, 65535) };

export const commands: Record<string, Command> = {
  generate: { summary: "compile spec/ into generated/", options: {} },
  check: { summary: "regenerate in memory; print a diff and exit 1 if generated/ drifted", options: {} },
  migrate: { summary: "apply pending migrations to the database, and bring the job records in step with the jobs folders", options: { verbose }, environment: [DATABASE, JOBS] },
  serve: {
    summary: "migrate, then serve every API",
    description: "Migrate, then serve every API until SIGTERM or SIGINT, which let the requests in flight finish.\n"
      + "Several worker processes share the port; the server restarts one that dies.",
    options: {
      port,
      workers: { value: "N", help: "processes serving the port (default: the cores with DATABASE_URL; the embedded database takes one)", parse: wholeNumber(1, 1024) },
      "no-migrate": { help: "leave migrating to `armature migrate`; /health/ready/ answers 503 until it ran" },
      verbose,
    },
    environment: SERVING,
  },
  run: {
    summary: "migrate, load demo data once, ensure an admin and its token, serve (development)",
    description: "Migrate, create the administrator (ADMIN_USERNAME, ADMIN_PASSWORD: admin, admin) and load the demo data\n"
      + "once, then serve in one process. The admin's API token is printed at the start that made it.",
    options: { port, verbose },
    environment: ["ADMIN_USERNAME (admin), ADMIN_PASSWORD (admin)", ...SERVING],
  },
  createsuperuser: {
    summary: "create an administrator and an API token for it (or give the token it has)",
    options: {
      username: { value: "U", help: "the administrator's username", required: true, parse: nonEmpty },
      password: { value: "P", help: "its password (ignored when the user exists)", required: true, parse: nonEmpty },
      token: { value: "KEY", help: "the token's key (default: a new random one)" },
    },
    environment: [DATABASE],
  },
  "demo-data": { summary: "load the demo data set once (skipped when already loaded)", options: {}, environment: [DATABASE] },
  "create-app-password": {
    summary: "create a WordPress-style application password (HTTP Basic) for a user",
    options: {
      username: { value: "U", help: "the user", required: true, parse: nonEmpty },
      name: { value: "NAME", help: "the password's name (default: cli)", parse: nonEmpty },
    },
    environment: [DATABASE],
  },
  dump: {
    summary: "write every object of every API, the change log and the media files to one file (stdout without FILE)",
    description: "Write the whole database (every table, in dependency order, from one consistent snapshot), its\n"
      + "sequences and the media folder's files as newline-delimited JSON (gzip when FILE ends in .gz).\n"
      + "Reads only; the embedded database must not be open in a running server. docs/operating/dump-and-load.md.",
    options: { exclude },
    arguments: [{ name: "FILE", help: "where to write the dump (default: stdout)" }],
    environment: [DATABASE, MEDIA],
  },
  load: {
    summary: "fill an empty database from a dump, in one transaction (ids, timestamps and change records kept)",
    description: "Fill an empty database (embedded or PostgreSQL) from a dump made by `armature dump`, in one transaction,\n"
      + "then apply the migrations this build adds. A bulk restore: rows are written directly, not through the\n"
      + "write pipeline (no change records, webhooks or permission checks are made for them). A database holding\n"
      + "any row is refused, and so is a dump cut short; either way nothing changes.",
    options: { exclude },
    arguments: [{ name: "FILE", help: "the dump (plain or gzip)", required: true }],
    environment: [DATABASE, MEDIA],
  },
  health_check: {
    summary: "check the database, the migrations, a queue worker and the media folder; exit 1 naming what fails",
    description: "Check what /health/ready/ checks (the database answers, every migration of this build is applied) and\n"
      + "what the install needs besides: a queue worker (in a server or `armature worker`, on any machine) seen in\n"
      + "the last minute, and a media folder files can be written to. One line per check; exit 0 when all work,\n"
      + "1 otherwise. Migrates nothing. The embedded database can only be checked while no server has it open.",
    options: {},
    environment: [DATABASE, MEDIA],
  },
  upgrade: {
    summary: "after installing a new build: migrate, sync job records, remove stale content types and expired sessions",
    description: "What Nautobot's post_upgrade does that applies here: apply pending migrations, bring the job records in\n"
      + "step with the jobs folders, remove the content types of models this build no longer has, and remove expired\n"
      + "browser sessions (clearsessions). The removals are system operations of `upgrade`: change-logged deletes.",
    options: { verbose },
    environment: [DATABASE, JOBS],
  },
  clearsessions: {
    summary: "remove expired browser sessions (Django's clearsessions)",
    options: {},
    environment: [DATABASE],
  },
  shell: {
    summary: "a REPL with the engine loaded (as nbshell): apis, engines, db, run(api, work)",
    description: "Migrate, then start a Node REPL (top-level await) whose context holds `apis` (the descriptors), `engines`\n"
      + "(per API: index, store, operations), `db` (Knex) and `run(api, async (op) => …)`, which runs work as a\n"
      + "system operation of `shell`: writes go through the write pipeline and are change-logged. Reads stdin,\n"
      + "so statements can be piped in.",
    options: {},
    environment: [DATABASE, JOBS],
  },
  worker: {
    summary: "migrate, then run a queue worker (webhook deliveries and jobs) without serving",
    options: {},
    environment: [DATABASE, "QUEUE_CONCURRENCY, QUEUE_POLL_INTERVAL, QUEUE_LEASE, QUEUE_* (docs/operating/settings.md)", JOBS],
  },
};

export type Parsed =
  | { run: string; values: Record<string, Value> }
  | { exit: 0 | 2; text: string };

const HELP = new Set(["--help", "-h"]);

export function topLevelHelp(): string {
  const width = Math.max(...Object.keys(commands).map((c) => c.length)) + 2;
  return [
    "usage: armature <command> [options]",
    "",
    "commands:",
    ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}${c.summary}`),
    "",
    "`armature <command> --help` tells a command's options and environment.",
  ].join("\n");
}

export function commandHelp(name: string): string {
  const c = commands[name];
  const flags = Object.entries(c.options).map(([o, spec]) => [`--${o}${spec.value ? ` ${spec.value}` : ""}`, `${spec.required ? "required: " : ""}${spec.help}`]);
  flags.push(["-h, --help", "show this help and do nothing else"]);
  for (const a of [...(c.arguments ?? [])].reverse()) flags.unshift([a.name, a.help]);
  const width = Math.max(...flags.map(([f]) => f.length)) + 2;
  const usage = Object.entries(c.options).map(([o, spec]) => {
    const text = `--${o}${spec.value ? ` ${spec.value}` : ""}`;
    return spec.required ? text : `[${text}]`;
  });
  for (const a of c.arguments ?? []) usage.push(a.required ? a.name : `[${a.name}]`);
  return [
    `usage: armature ${[name, ...usage].join(" ")}`,
    "",
    c.description ?? `${c.summary[0].toUpperCase()}${c.summary.slice(1)}.`,
    "",
    "options:",
    ...flags.map(([f, h]) => `  ${f.padEnd(width)}${h}`),
    ...(c.environment ? ["", "environment:", ...c.environment.map((e) => `  ${e}`)] : []),
  ].join("\n");
}

function refuse(name: string | undefined, problem: string): Parsed {
  const next = name ? `\`armature ${name} --help\` tells its options.` : "`armature --help` lists the commands.";
  return { exit: 2, text: `armature${name ? ` ${name}` : ""}: ${problem}\n${next}` };
}

export function parseCommandLine(argv: string[]): Parsed {
  const [name, ...args] = argv;
  if (name === undefined) return { exit: 2, text: topLevelHelp() };
  if (HELP.has(name)) return { exit: 0, text: topLevelHelp() };
  if (name === "help") {
    if (args[0] === undefined) return { exit: 0, text: topLevelHelp() };
    return Object.hasOwn(commands, args[0]) ? { exit: 0, text: commandHelp(args[0]) } : refuse(undefined, `no command "${args[0]}"`);
  }
  if (!Object.hasOwn(commands, name)) return refuse(undefined, `no command "${name}"`);
  // Help wins over everything else on the line: asking must never run anything.
  const end = args.indexOf("--");
  if ((end < 0 ? args : args.slice(0, end)).some((a) => HELP.has(a))) return { exit: 0, text: commandHelp(name) };

  const spec = commands[name].options;
  const positional = commands[name].arguments ?? [];
  let parsed: Record<string, string | boolean | Array<string | boolean> | undefined>;
  let positionals: string[];
  try {
    ({ values: parsed, positionals } = parseArgs({
      args,
      options: Object.fromEntries(Object.entries(spec).map(([o, s]) => [o, { type: s.value ? "string" as const : "boolean" as const, multiple: s.multiple ?? false }])),
      strict: true,
      allowPositionals: positional.length > 0,
    }));
  } catch (err) {
    return refuse(name, (err as Error).message.split("\n")[0]);
  }
  if (positionals.length > positional.length) return refuse(name, `Unexpected argument '${positionals[positional.length]}'`);
  const absent = positional.filter((a, n) => a.required && positionals[n] === undefined).map((a) => a.name);
  if (absent.length) return refuse(name, `${absent.join(" and ")} ${absent.length > 1 ? "are" : "is"} required`);
  const missing = Object.entries(spec).filter(([o, s]) => s.required && parsed[o] === undefined).map(([o]) => `--${o}`);
  if (missing.length) return refuse(name, `${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} required`);
  const values: Record<string, Value> = {};
  for (const [o, s] of Object.entries(spec)) {
    const given = parsed[o];
    if (given === undefined) continue;
    try {
      values[o] = Array.isArray(given) ? given.flatMap((g) => String(g).split(",")).map((g) => (s.parse ? String(s.parse(g)) : g)) : typeof given === "string" && s.parse ? s.parse(given) : given;
    } catch (err) {
      return refuse(name, `--${o} ${(err as Error).message}`);
    }
  }
  positional.forEach((a, n) => { if (positionals[n] !== undefined) values[a.name.toLowerCase()] = positionals[n]; });
  return { run: name, values };
}
