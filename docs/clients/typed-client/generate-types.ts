// Writes the client types of one inventory OpenAPI document into ./types/: `inventory.ts`
// (every operation: full forms, one-object creates), `inventory-brief.ts` (GETs in the brief
// form) and `inventory-bulk.ts` (POSTs of a list). Run: npx tsx generate-types.ts <document>
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import { variantDocument, type VariantName } from "./variants.js";

export async function generateTypes(documentPath: string, outDir = fileURLToPath(new URL("./types/", import.meta.url))): Promise<string[]> {
  const doc = JSON.parse(readFileSync(documentPath, "utf8"));
  mkdirSync(outDir, { recursive: true });
  const written: string[] = [];
  const write = async (file: string, source: object) => {
    const target = join(outDir, file);
    writeFileSync(target, astToString(await openapiTS(source as never)));
    written.push(target);
  };
  await write("inventory.ts", doc);
  for (const name of ["brief", "bulk"] as VariantName[]) await write(`inventory-${name}.ts`, variantDocument(doc, name));
  return written;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [documentPath] = process.argv.slice(2);
  if (!documentPath) {
    console.error("usage: tsx generate-types.ts <openapi document>");
    process.exit(2);
  }
  for (const file of await generateTypes(documentPath)) console.log(`wrote ${file}`);
}
