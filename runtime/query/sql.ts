// Small SQL text helpers shared by the read and filter builders: identifier quoting and
// literal quoting for values that come from descriptors (never from requests: request
// values always travel as bind parameters).
export const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;
export const col = (alias: string, column: string): string => `${alias}.${ident(column)}`;
export const literal = (value: string): string => `'${value.replace(/'/g, "''")}'`;
