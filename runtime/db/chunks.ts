// Multi-row inserts within PostgreSQL's bound on a statement's parameters: its protocol counts
// them in 16 bits, so a set of a few thousand wide rows is written by a few statements.

/** Parameters one statement may bind, with room below the protocol's 65,535. */
export const MAX_PARAMETERS = 60_000;

/** `rows` in order, split so that no part's insert binds more than `max` parameters. */
export function chunksWithin<T extends object>(rows: T[], max = MAX_PARAMETERS): T[][] {
  const columns = new Set(rows.flatMap((r) => Object.keys(r))).size || 1;
  const size = Math.max(1, Math.floor(max / columns));
  const parts: T[][] = [];
  for (let i = 0; i < rows.length; i += size) parts.push(rows.slice(i, i + size));
  return parts;
}
