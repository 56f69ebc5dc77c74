// The command line's grammar without running anything: every command answers --help (exit 0),
// refuses what it does not know or lacks (exit 2, naming the option), and hands over checked values.
import { expect } from "chai";
import { commands, parseCommandLine, type Parsed } from "../../bin/command-line.js";
import { migratedLine } from "../../runtime/cli.js";

function refusal(argv: string[]): string {
  const parsed = parseCommandLine(argv);
  expect(parsed, argv.join(" ")).to.have.property("exit", 2);
  return (parsed as { text: string }).text;
}

describe("command line", () => {
  it("top-level help exits 0 and lists every command; no command at all is a usage error", () => {
    for (const argv of [["--help"], ["-h"], ["help"]]) {
      const parsed = parseCommandLine(argv) as { exit: number; text: string };
      expect(parsed.exit, argv[0]).to.equal(0);
      for (const name of Object.keys(commands)) expect(parsed.text).to.match(new RegExp(`^  ${name} `, "m"));
    }
    expect(parseCommandLine([])).to.have.property("exit", 2);
    expect(refusal(["frob"])).to.include('no command "frob"').and.include("armature --help");
    expect(refusal(["help", "frob"])).to.include('no command "frob"');
  });

  it("every command's --help, -h and `help <command>` give its usage and options, and run nothing", () => {
    for (const [name, command] of Object.entries(commands)) {
      for (const argv of [[name, "--help"], [name, "-h"], ["help", name], [name, "--unknown", "--help"], [name, "--port", "--help"]]) {
        const parsed = parseCommandLine(argv) as { exit: number; text: string };
        expect(parsed.exit, argv.join(" ")).to.equal(0);
        expect(parsed.text).to.match(new RegExp(`^usage: armature ${name}\\b`));
        for (const option of Object.keys(command.options)) expect(parsed.text, name).to.include(`--${option}`);
      }
    }
    // After `--` it is no longer an option.
    expect(refusal(["migrate", "--", "--help"])).to.include("Unexpected argument '--help'");
  });

  it("every command refuses an unknown option and a stray argument, naming them", () => {
    for (const [name, command] of Object.entries(commands)) {
      expect(refusal([name, "--prot", "18611"])).to.include(`armature ${name}: Unknown option '--prot'`).and.include(`armature ${name} --help`);
      const taken = (command.arguments ?? []).map((a) => a.name.toLowerCase());
      expect(refusal([name, ...taken, "extra"])).to.include("Unexpected argument 'extra'");
    }
  });

  it("required options: all of the missing ones are named; empty values are refused", () => {
    expect(refusal(["createsuperuser"])).to.include("--username and --password are required");
    expect(refusal(["createsuperuser", "--username", "admin"])).to.include("--password is required");
    expect(refusal(["createsuperuser", "--username", " ", "--password", "p"])).to.include("--username must not be empty");
    expect(refusal(["create-app-password"])).to.include("--username is required");
  });

  it("option values are checked and typed", () => {
    expect(refusal(["serve", "--port"])).to.include("argument missing");
    expect(refusal(["serve", "--port", "http"])).to.include('--port must be a whole number from 0 to 65535, not "http"');
    expect(refusal(["serve", "--port", "65536"])).to.include("--port must be");
    expect(refusal(["run", "--port", "-1"])).to.include("--port");
    expect(refusal(["serve", "--workers", "0"])).to.include('--workers must be a whole number from 1 to 1024, not "0"');
    expect(refusal(["serve", "--no-migrate=yes"])).to.include("does not take an argument");
    expect(parseCommandLine(["serve", "--port", "0", "--workers", "3", "--no-migrate"])).to.deep.equal({ run: "serve", values: { port: 0, workers: 3, "no-migrate": true } } satisfies Parsed);
    expect(parseCommandLine(["createsuperuser", "--username=admin", "--password", "p", "--token", "k"]))
      .to.deep.equal({ run: "createsuperuser", values: { username: "admin", password: "p", token: "k" } });
    expect(parseCommandLine(["migrate"])).to.deep.equal({ run: "migrate", values: {} });
  });

  it("positional arguments and repeated options: dump's FILE is optional, load's required; --exclude takes known values, repeated or comma-separated", () => {
    expect(parseCommandLine(["dump"])).to.deep.equal({ run: "dump", values: {} });
    expect(parseCommandLine(["dump", "out.ndjson", "--exclude", "changes", "--exclude=media"]))
      .to.deep.equal({ run: "dump", values: { file: "out.ndjson", exclude: ["changes", "media"] } });
    expect(parseCommandLine(["load", "in.ndjson.gz", "--exclude", "changes,media"]))
      .to.deep.equal({ run: "load", values: { file: "in.ndjson.gz", exclude: ["changes", "media"] } });
    expect(refusal(["load"])).to.include("armature load: FILE is required");
    expect(refusal(["dump", "--exclude", "tags"])).to.include('--exclude must be one of changes, media, not "tags"');
    expect(parseCommandLine(["dump", "--help"])).to.have.property("text").that.include("usage: armature dump [--exclude WHAT] [FILE]");
  });

  it("migrate, serve, run and upgrade take --verbose; the migrated line names migrations only then", () => {
    for (const name of ["migrate", "serve", "run", "upgrade"]) {
      expect(parseCommandLine([name, "--verbose"]), name).to.deep.equal({ run: name, values: { verbose: true } } satisfies Parsed);
    }
    const applied = ["armature/0001_queue.sql", "inventory/0001_initial.sql", "inventory/0002_more.sql", "inventory/bgp/0001_initial.sql", "calendar/0001_initial.sql"];
    expect(migratedLine(applied)).to.equal("migrated: 5 migrations (armature 1, inventory 2, inventory/bgp 1, calendar 1)");
    expect(migratedLine(applied, true)).to.equal(`migrated: 5 migrations (armature 1, inventory 2, inventory/bgp 1, calendar 1): ${applied.join(", ")}`);
    expect(migratedLine(applied.slice(0, 1))).to.equal("migrated: 1 migration (armature 1)");
  });
});
