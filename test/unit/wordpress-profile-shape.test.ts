// The WordPress profile's shape (issue 31): small modules and small functions, so no request
// path grows back into one closure that holds every view's state. Read from the source with
// ts-morph: every function-like node counts, nested ones included, so a long outer function
// fails even when its inner functions are short.
import { expect } from "chai";
import { join, relative } from "node:path";
import { Node, Project } from "ts-morph";

const ROOT = join("runtime", "profiles", "wordpress");
const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 80;

const project = new Project({ skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true });
const files = project.addSourceFilesAtPaths(`${ROOT}/**/*.ts`);

/** Lines as `wc -l` counts them: a final newline ends the last line, it starts none. */
const lineCount = (text: string) => text.replace(/\n$/, "").split("\n").length;

/** A function's name as a reader finds it: its own, its variable's or property's, else its line. */
function nameOf(node: Node): string {
  const named = (node as { getName?: () => string | undefined }).getName?.();
  if (named) return named;
  const holder = node.getParent();
  if (holder && (Node.isVariableDeclaration(holder) || Node.isPropertyAssignment(holder) || Node.isPropertyDeclaration(holder))) return holder.getName();
  return Node.isConstructorDeclaration(node) ? "constructor" : `(anonymous at line ${node.getStartLineNumber()})`;
}

describe("WordPress profile shape", () => {
  it("finds the profile's sources", () => {
    expect(files.length).to.be.greaterThan(5);
    expect(files.map((f) => relative(ROOT, f.getFilePath()))).to.include("index.ts");
  });

  it(`has no file over ${MAX_FILE_LINES} lines`, () => {
    const long = files.filter((f) => lineCount(f.getFullText()) > MAX_FILE_LINES).map((f) => `${relative(ROOT, f.getFilePath())}: ${lineCount(f.getFullText())} lines`);
    expect(long).to.deep.equal([]);
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines`, () => {
    const long: string[] = [];
    for (const f of files) {
      f.forEachDescendant((node) => {
        const functionLike = Node.isFunctionDeclaration(node) || Node.isMethodDeclaration(node) || Node.isArrowFunction(node) || Node.isFunctionExpression(node)
          || Node.isConstructorDeclaration(node) || Node.isGetAccessorDeclaration(node) || Node.isSetAccessorDeclaration(node);
        if (!functionLike) return;
        const lines = node.getEndLineNumber() - node.getStartLineNumber() + 1;
        if (lines > MAX_FUNCTION_LINES) long.push(`${relative(ROOT, f.getFilePath())}: ${nameOf(node)} (${lines} lines)`);
      });
    }
    expect(long).to.deep.equal([]);
  });
});
