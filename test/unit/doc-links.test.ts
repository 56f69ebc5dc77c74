// Every relative link in README.md and docs/**/*.md names a file that exists, and a `#anchor`
// on it (or on the page itself) names one of that file's headings, slugged as GitHub slugs
// them. Links with a scheme (https:, mailto:) are not followed; links in code are not links.
import { expect } from "chai";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(".");

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? markdownFiles(path) : e.name.endsWith(".md") ? [path] : [];
  });
}

/** The text outside fenced blocks and inline code spans, where a link is a link. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/(`+)[\s\S]*?\1/g, "");
}

/** GitHub's anchors for a file's headings: lower case, punctuation dropped, spaces as dashes, repeats numbered. */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const withoutFences = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  for (const [, heading] of withoutFences.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = heading!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}

/** The relative link targets of a markdown text. */
export function relativeLinks(text: string): string[] {
  const targets = [...prose(text).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

/** What is wrong with one link from `from`, or undefined. */
function brokenLink(from: string, target: string): string | undefined {
  const [pathPart, anchor] = target.split("#", 2) as [string, string | undefined];
  const file = pathPart ? resolve(dirname(from), decodeURI(pathPart)) : from;
  if (!existsSync(file) || !statSync(file).isFile()) return `${target}: no such file`;
  if (anchor === undefined) return undefined;
  if (!file.endsWith(".md")) return `${target}: an anchor into a file that is not markdown`;
  return headingAnchors(readFileSync(file, "utf8")).has(decodeURIComponent(anchor).toLowerCase()) ? undefined : `${target}: no heading #${anchor}`;
}

describe("documentation links", () => {
  it("slugs headings as GitHub does", () => {
    expect([...headingAnchors("# Hostile input, failures and headers\n## `serve` --workers\n## A\n## A\n```\n# not a heading\n```\n")])
      .to.deep.equal(["hostile-input-failures-and-headers", "serve---workers", "a", "a-1"]);
  });

  it("finds relative links outside code, with or without anchors", () => {
    const text = "[a](x.md) [b](https://e.example/) [c](y.md#z) `[d](code.md)`\n```\n[e](fenced.md)\n```\n[f](#here)";
    expect(relativeLinks(text)).to.deep.equal(["x.md", "y.md#z", "#here"]);
  });

  it("every relative link in README.md and docs/ resolves to a file, and every anchor to a heading", () => {
    const files = [join(ROOT, "README.md"), ...markdownFiles(join(ROOT, "docs"))];
    const broken = files.flatMap((f) =>
      relativeLinks(readFileSync(f, "utf8")).flatMap((t) => {
        const problem = brokenLink(f, t);
        return problem ? [`${relative(ROOT, f)}: ${problem}`] : [];
      }));
    expect(broken).to.deep.equal([]);
  });
});
