// The second step of `npm run build`, run from the output folder once tsc has compiled the
// sources there: copies in the files the compiled modules read beside themselves, which tsc
// does not emit (templates/*.hbs; generated/<api>/openapi/*.json and migrations/*.sql, and the
// rest of generated/ that is not TypeScript). The build starts from an empty folder, so nothing
// stale stays.
import { cpSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const out = join(dirname(fileURLToPath(import.meta.url)), "..");
// The sources are in the folder above the output that holds package.json (dist/ is one level down).
let root = dirname(out);
while (!existsSync(join(root, "package.json"))) {
  if (dirname(root) === root) throw new Error(`no package.json above ${out}`);
  root = dirname(root);
}

for (const dir of ["templates", "generated"]) {
  cpSync(join(root, dir), join(out, dir), { recursive: true, filter: (path) => !path.endsWith(".ts") });
}
