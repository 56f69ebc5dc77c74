// Writes the client types of the inventory's OpenAPI documents into ./types/: `inventory.ts`
// (every operation: full forms, one-object creates), `inventory-brief.ts` (GETs in the brief
// form) and `inventory-bulk.ts` (POSTs of a list), from the documents the server serves with
// `form=full`, `form=brief` and `form=bulk`.
// Run: npx tsx generate-types.ts <full document> <brief document> <bulk document>
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";

export const FORMS = { full: "inventory.ts", brief: "inventory-brief.ts", bulk: "inventory-bulk.ts" } as const;
export type Form = keyof typeof FORMS;

export async function generateTypes(documents: Record<Form, string>, outDir = fileURLToPath(new URL("./types/", import.meta.url))): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const written: string[] = [];
  for (const [form, file] of Object.entries(FORMS) as Array<[Form, string]>) {
    const target = join(outDir, file);
    writeFileSync(target, astToString(await openapiTS(JSON.parse(readFileSync(documents[form], "utf8")))));
    written.push(target);
  }
  return written;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [full, brief, bulk] = process.argv.slice(2);
  if (!full || !brief || !bulk) {
    console.error("usage: tsx generate-types.ts <full document> <brief document> <bulk document>");
    process.exit(2);
  }
  for (const file of await generateTypes({ full, brief, bulk })) console.log(`wrote ${file}`);
}
