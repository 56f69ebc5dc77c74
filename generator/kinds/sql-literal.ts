// SQL literals of spec values (defaults), for column DDL.
export function sqlLiteral(value: unknown): string {
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === null) return "NULL";
  return `'${String(value).replace(/'/g, "''")}'`;
}
