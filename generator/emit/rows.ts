// Row types emitter: `generated/<api>/rows.ts`, the TypeScript type of every model's stored
// row by field name (what its hooks are given as `before`, `values` and `after`, and read with
// `readRow`). A field's type follows its column's SQL type as the database driver gives it
// back. Pure: gives one {path, contents}.
import type { CodeBlockWriter } from "ts-morph";
import { storedColumn } from "../../runtime/descriptor.js";
import type { IrApi } from "../ir/index.js";
import { byCodePoint, generatedPaths, rowTypeName } from "../ir/names.js";
import { render } from "./descriptors.js";
import type { EmittedFile } from "./index.js";
import type { Column } from "./schema.js";

/** The TypeScript type of each SQL column type, by the type's name without its length or precision. */
const TS_TYPES: Record<string, string> = {
  uuid: "string", text: "string", varchar: "string", char: "string", cidr: "string", inet: "string",
  // A decimal is written and read back as its text, to keep every digit.
  numeric: "string",
  integer: "number", serial: "number", smallint: "number", real: "number", "double precision": "number",
  // node-postgres gives int8 back as text; a write holds the number it was given.
  bigint: "number | string",
  boolean: "boolean",
  json: "unknown", jsonb: "unknown",
  date: "StoredTime", timestamptz: "StoredTime", timestamp: "StoredTime",
};

function tsType(column: Column, where: string): string {
  const base = TS_TYPES[column.type.replace(/\(.*\)$/, "")];
  if (base === undefined) throw new Error(`${where}: no TypeScript type for the column type ${column.type}`);
  return base === "unknown" || !column.nullable ? base : `${base} | null`;
}

/** `columns` gives each model's table columns by model key (generator/emit/schema.ts). */
export function emitRows(api: IrApi, columns: Map<string, Record<string, Column>>): EmittedFile {
  const models = [...api.models].sort((a, b) => byCodePoint(a.key, b.key)).map((m) => {
    const fields = m.fields.flatMap((field) => {
      const column = storedColumn(field);
      return column === undefined ? [] : [{ name: field.name, type: tsType(columns.get(m.key)![column], `${m.file}: field ${field.name}`) }];
    });
    return { key: m.key, file: m.file, type: rowTypeName(m.app, m.name), fields };
  });
  return render(generatedPaths.rows(api.name), api.file, (f) => {
    if (models.some((m) => m.fields.some((x) => x.type.startsWith("StoredTime")))) {
      f.addImportDeclaration({ isTypeOnly: true, namedImports: ["StoredTime"], moduleSpecifier: "../../runtime/descriptor.js" });
    }
    f.addStatements((w: CodeBlockWriter) => {
      w.newLine();
      models.forEach((m, n) => {
        if (n) w.blankLine();
        w.writeLine(`/** A stored row of ${m.key} (${m.file}), by field name. */`);
        w.write(`export interface ${m.type} `).block(() => {
          for (const x of m.fields) w.writeLine(`${x.name}: ${x.type};`);
        });
      });
    });
  });
}
