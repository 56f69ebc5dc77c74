// The profiles stay in small pieces (issue 31): no file over 300 lines, no function over 80.
// It covers the DRF profile and the profile registry; the WordPress profile joins it once its
// own split lands.
import { expect } from "chai";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { Node, Project } from "ts-morph";

const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 80;
const COVERED = ["runtime/profiles/drf", "runtime/profiles/index.ts"];

function sources(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).sort().flatMap((entry) => sources(join(path, entry))).filter((p) => p.endsWith(".ts"));
}

const project = new Project({ skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true });
const files = COVERED.flatMap(sources).map((path) => project.addSourceFileAtPath(path));

describe("profile shape", () => {
  it("covers the profile's files", () => {
    expect(files.length).to.be.greaterThan(10);
  });

  it(`holds no file over ${MAX_FILE_LINES} lines`, () => {
    const long = files.filter((f) => f.getEndLineNumber() > MAX_FILE_LINES).map((f) => `${f.getFilePath()}: ${f.getEndLineNumber()}`);
    expect(long).to.deep.equal([]);
  });

  it(`holds no function over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = files.flatMap((f) => f.getDescendants().filter((n) => Node.isFunctionLikeDeclaration(n)).flatMap((n) => {
      const lines = n.getEndLineNumber() - n.getStartLineNumber() + 1;
      return lines > MAX_FUNCTION_LINES ? [`${f.getFilePath()}:${n.getStartLineNumber()}: ${lines} lines`] : [];
    }));
    expect(long).to.deep.equal([]);
  });

  it("would find a long function", () => {
    const body = Array.from({ length: MAX_FUNCTION_LINES }, (_, i) => `  const x${i} = ${i};`).join("\n");
    const f = project.createSourceFile("long.ts", `export function long(): void {\n${body}\n}\n`, { overwrite: true });
    const found = f.getDescendants().filter((n) => Node.isFunctionLikeDeclaration(n)).map((n) => n.getEndLineNumber() - n.getStartLineNumber() + 1);
    expect(found).to.deep.equal([MAX_FUNCTION_LINES + 2]);
  });
});
