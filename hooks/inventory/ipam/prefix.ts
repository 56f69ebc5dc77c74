// Nautobot's Prefix.clean() (a /0 prefix would contain every other one; its location is in
// its site and of a type that holds prefixes), its filter set's methods, and its free space:
// `available-prefixes` and `available-ips` list what no child uses and, on POST, create
// prefixes or addresses there. The database finds the gaps between the children (one
// statement, by index, however many children there are); only the gaps reach this process.
import {
  columns, readRow, Refusal, type ActionEvent, type AllocateEvent, type Allocation, type HookDb, type MethodQuery, type ModelNames, type SaveEvent,
  ValidationError, type FieldErrors, bitsOf, blocksOf, formatAddress, parseAddress, type Family, prepared,
} from "../../../runtime/hooks.js";
import { checkLocations } from "../lib/located.js";
import { vrfLabel, vrfScopeFilters } from "../lib/vrf-scope.js";
import { hostOf } from "../lib/addressing.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { IpamPrefix } from "../../../generated/inventory/rows.js";

const { prefix: PREFIXES, ipaddress: ADDRESSES } = tables.ipam;

/**
 * Prefix.clean() for a set of prefixes at once (a bulk create, or one save): one statement
 * checks every prefix against the unique space of its VRF, and the set against itself; one
 * more checks every location named.
 */
export async function beforeSaveSet(events: Array<SaveEvent<IpamPrefix>>): Promise<void> {
  for (const { values } of events) {
    if (typeof values.prefix === "string" && values.prefix.endsWith("/0")) throw new Refusal({ prefix: "Cannot create prefix with /0 mask." });
  }
  await checkUnique(events);
  await checkLocations(events[0].db, "ipam.prefix", "Prefixes", events.map((e) => e.after));
}

/**
 * A VRF that enforces unique space holds each prefix once (the global table does not:
 * ENFORCE_GLOBAL_UNIQUE is off): neither a stored prefix nor one written before it in the set.
 */
async function checkUnique(events: Array<SaveEvent<IpamPrefix>>): Promise<void> {
  const asked = events.flatMap(({ id, after: p }, n) => (p.vrf && typeof p.prefix === "string" ? [{ n, vrf: String(p.vrf), prefix: p.prefix, id }] : []));
  if (!asked.length) return;
  const { db, check } = events[0];
  const { prefix: prefixes, vrf: vrfs } = tables.ipam;
  // One statement: each prefix's VRF, its network, and its stored twin where the VRF enforces unique space.
  // Its text is the same for every set: planned once per connection. The twin is sought by
  // the terms of the prefixes' ordering index (VRF, address bytes, mask length: the spec
  // orders prefixes by VRF and prefix), a btree probe: by `prefix = network` the GiST index
  // served it, whose bitmap probes visit every deleted row until a vacuum (1,000 prefixes
  // checked in 1.5 s with 60,000 deleted, against 5 ms; 2 ms both once vacuumed).
  const stored = `t.${prefixes.columns.prefix}::inet`;
  // A check: a single create sends it with its row, and the refusal comes from its verdict.
  await check<{ rows: Array<{ vrf: string; name: string; rd: string | null; enforce_unique: boolean; network: string; twin: string | null }> }>(prepared(db.raw(
    `SELECT e.n, e.vrf::text AS vrf, v.${vrfs.columns.name} AS name, v.${vrfs.columns.rd} AS rd, v.${vrfs.columns.enforce_unique} AS enforce_unique, ` +
    "network(e.prefix::inet)::text AS network, " +
    `(SELECT t.${prefixes.columns.prefix}::text FROM ${prefixes.table} t WHERE v.${vrfs.columns.enforce_unique} AND t.${prefixes.columns.vrf} = v.id ` +
    `AND substring(inet_send(${stored}) from 5) = substring(inet_send(network(e.prefix::inet)) from 5) AND masklen(${stored}) = masklen(e.prefix::inet) ` +
    "AND t.id IS DISTINCT FROM e.id LIMIT 1) AS twin " +
    `FROM unnest(?::int[], ?::uuid[], ?::text[], ?::uuid[]) AS e(n, vrf, prefix, id) JOIN ${vrfs.table} v ON v.id = e.vrf ORDER BY e.n`,
    [asked.map((a) => a.n), asked.map((a) => a.vrf), asked.map((a) => a.prefix), asked.map((a) => a.id)] as unknown as string[][],
  )), ({ rows }) => {
    const earlier = new Map<string, string>();
    for (const row of rows) {
      const key = `${row.vrf} ${row.network}`;
      const twin = row.twin ?? (row.enforce_unique ? earlier.get(key) : undefined);
      if (twin) throw new Refusal({ prefix: `Duplicate prefix found in VRF ${vrfLabel(row)}: ${twin}` });
      earlier.set(key, row.network);
    }
  }, "NOT EXISTS (SELECT 1 FROM r WHERE r.twin IS NOT NULL OR (r.enforce_unique AND EXISTS (SELECT 1 FROM r e WHERE e.vrf = r.vrf AND e.network = r.network AND e.n < r.n)))");
}

export const filters = {
  ...vrfScopeFilters,
  // Prefixes of a VLAN with this number (a value that is no number matches none).
  vlan_vid: ({ alias, values }: MethodQuery) =>
    `EXISTS (SELECT 1 FROM ${tables.ipam.vlan.table} v WHERE v.id = ${columns(PREFIXES, alias).vlan} AND ${columns(tables.ipam.vlan, "v").vid}::text = ANY(${values}))`,
};

interface Parent extends Pick<IpamPrefix, "id" | "prefix" | "vrf" | "status" | "is_pool"> { family: Family; first: bigint; last: bigint; length: number }
interface Range { lo: bigint; hi: bigint }

async function parent(db: HookDb, id: string): Promise<Parent> {
  const p = (await readRow<IpamPrefix>(db, PREFIXES, id))!;
  const { family, value } = parseAddress(p.prefix);
  const length = Number(String(p.prefix).split("/")[1]);
  const span = 1n << BigInt(bitsOf(family) - length);
  return { ...p, family, first: value, last: value + span - 1n, length };
}

/** Children (prefixes or addresses: `names`, aliased `alias`) in the prefix's VRF; in any VRF under a global container (get_child_prefixes). */
const inScope = (p: Parent, names: ModelNames, alias: string) => {
  const vrf = columns(names, alias).vrf;
  return p.vrf === null && p.status === "container" ? "true" : p.vrf === null ? `${vrf} IS NULL` : `${vrf} = '${p.vrf}'::uuid`;
};

/** An address column as a bare host, in address order: the expression of the spec's host index. */
const HOST = hostOf(columns(ADDRESSES, "a").address);

/** A cidr expression's network or broadcast as a bare host address, comparable in address order. */
const host = (p: Parent, expr: string) => `set_masklen((${expr})::inet, ${bitsOf(p.family)})`;

/** The free ranges inside `lo`…`hi` around the used ones, given their ends and the gaps between them. */
function around(lo: bigint, hi: bigint, first: string | undefined, last: string | undefined, inner: Array<{ lo: string; hi: string }>): Range[] {
  if (first === undefined || last === undefined) return [{ lo, hi }];
  const min = parseAddress(first).value;
  const max = parseAddress(last).value;
  return [
    ...(min > lo ? [{ lo, hi: min - 1n }] : []),
    ...inner.map((g) => ({ lo: parseAddress(g.lo).value, hi: parseAddress(g.hi).value })),
    ...(max < hi ? [{ lo: max + 1n, hi }] : []),
  ];
}

/** The free space of a prefix: what no child prefix covers (get_available_prefixes). */
async function freePrefixes(db: HookDb, p: Parent): Promise<Range[]> {
  // Children may nest: a gap starts after the furthest end seen so far.
  const c = columns(PREFIXES, "c").prefix;
  const { rows } = await db.raw(
    `WITH used AS (SELECT DISTINCT ${host(p, `network(${c})`)} AS lo, ${host(p, `broadcast(${c})`)} AS hi ` +
    `FROM ${PREFIXES.table} c WHERE ${inScope(p, PREFIXES, "c")} AND ${c} << '${p.prefix}'::cidr), ` +
    `w AS (SELECT lo, hi, max(hi) OVER (ORDER BY lo, hi ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev FROM used) ` +
    `SELECT 'edge' AS kind, host(min(lo)) AS lo, host(max(hi)) AS hi FROM used ` +
    `UNION ALL (SELECT 'gap', host(prev + 1), host(lo - 1) FROM w WHERE prev IS NOT NULL AND prev + 1 < lo ORDER BY lo)`,
  );
  const [edge, ...inner] = rows as Array<{ lo: string | null; hi: string | null }>;
  return around(p.first, p.last, edge.lo ?? undefined, edge.hi ?? undefined, inner as Array<{ lo: string; hi: string }>);
}

/** The usable addresses of a prefix: a plain IPv4 prefix keeps its network and broadcast addresses back. */
function usable(p: Parent): Range {
  const whole = p.family === 6 || p.is_pool || p.length >= 31;
  return whole ? { lo: p.first, hi: p.last } : { lo: p.first + 1n, hi: p.last - 1n };
}

/** FROM and WHERE of the prefix's child addresses (get_child_ips) whose hosts lie in `lo`…`hi`, by the host index. */
const childAddresses = (p: Parent, lo: bigint, hi: bigint) => `FROM ${ADDRESSES.table} a WHERE ${inScope(p, ADDRESSES, "a")} ` +
  `AND ${HOST} BETWEEN '${formatAddress(p.family, lo)}'::inet AND '${formatAddress(p.family, hi)}'::inet`;

/**
 * The first free ranges of a prefix's usable addresses (get_available_ips), enough to hold `n`
 * addresses. The gaps come from a walk of the host index in address order that stops at the
 * `n`th gap, so a prefix with many children costs what its first gaps cost.
 */
async function freeAddresses(db: HookDb, p: Parent, n: number): Promise<Range[]> {
  const { lo, hi } = usable(p);
  if (lo > hi) return [];
  // No DISTINCT: a repeated host is its own predecessor and makes no gap, and each part
  // stays an ordered walk of the index that can stop early.
  const used = childAddresses(p, lo, hi);
  const { rows } = await db.raw(
    `(SELECT 'first' AS kind, host(${HOST}) AS lo, NULL AS hi ${used} ORDER BY ${HOST} LIMIT 1) UNION ALL ` +
    `(SELECT 'last', host(${HOST}), NULL ${used} ORDER BY ${HOST} DESC LIMIT 1) UNION ALL ` +
    `(SELECT 'gap', host(prev + 1), host(h - 1) FROM (SELECT ${HOST} AS h, lag(${HOST}) OVER (ORDER BY ${HOST}) AS prev ${used}) w ` +
    `WHERE prev + 1 < h ORDER BY h LIMIT ${n})`,
  );
  const all = rows as Array<{ kind: string; lo: string; hi: string }>;
  return around(lo, hi, all.find((r) => r.kind === "first")?.lo, all.find((r) => r.kind === "last")?.lo, all.filter((r) => r.kind === "gap"));
}

/** How many usable addresses of a prefix no child address takes (the size of its IPSet). */
async function freeCount(db: HookDb, p: Parent): Promise<bigint> {
  const { lo, hi } = usable(p);
  if (lo > hi) return 0n;
  const { rows } = await db.raw(`SELECT count(DISTINCT ${HOST})::text AS n ${childAddresses(p, lo, hi)}`);
  return hi - lo + 1n - BigInt(rows[0].n);
}

/** The first `n` addresses of the free ranges, in order. */
function firstAddresses(free: Range[], n: number): bigint[] {
  const out: bigint[] = [];
  for (const r of free) {
    for (let a = r.lo; a <= r.hi && out.length < n; a++) out.push(a);
    if (out.length >= n) break;
  }
  return out;
}

const vrfOf = async (e: ActionEvent, p: Parent) => (p.vrf ? (await e.read([{ model: "ipam.vrf", id: p.vrf }], "nested"))[0] : null);

export const actions = {
  async "available-prefixes"(e: ActionEvent): Promise<unknown> {
    const p = await parent(e.db, e.id!);
    const vrf = await vrfOf(e, p);
    return (await freePrefixes(e.db, p)).flatMap((r) => blocksOf(p.family, r.lo, r.hi))
      .map((b) => ({ family: p.family, prefix: `${formatAddress(p.family, b.start)}/${b.length}`, vrf }));
  },
  async "available-ips"(e: ActionEvent): Promise<unknown> {
    const p = await parent(e.db, e.id!);
    const vrf = await vrfOf(e, p);
    // Without a bound the list would be the whole of an IPv6 prefix: one page's worth at most.
    const n = e.limit ?? 1000;
    return firstAddresses(await freeAddresses(e.db, p, n), n).map((a) => ({ family: p.family, address: `${formatAddress(p.family, a)}/${p.length}`, vrf }));
  },
};

/** Free ranges a request left in its memo for the next: of the first `valid` free addresses, or all of them when fewer. */
interface Room { p: Parent; free: Range[]; valid: number }

/**
 * Room for at least this many addresses is sought at once: the walk to the first free
 * addresses costs what the used ones below them cost (a dense prefix of 100,000 addresses,
 * some 100 ms), however few are asked for, so a burst of requests carries it from batch to
 * batch and walks again once per this many.
 */
const ROOM = 1024;

/**
 * The room the batch before this one carried, when the prefix still scopes its addresses as
 * it did and none of the addresses this batch's requests would take has been taken meanwhile
 * (by another instance, or by an allocation in a child prefix): an index probe, where a walk
 * would cost what the used addresses below them cost.
 */
async function carriedRoom(e: AllocateEvent): Promise<Room | undefined> {
  const room = e.carried.room as Room | undefined;
  if (!room) return undefined;
  const p = await parent(e.db, e.id!);
  if (p.prefix !== room.p.prefix || p.vrf !== room.p.vrf || p.status !== room.p.status || p.is_pool !== room.p.is_pool) return undefined;
  const candidates = firstAddresses(room.free, Math.min(room.valid, e.queued)).map((a) => formatAddress(p.family, a));
  if (!candidates.length) return undefined;
  const { rows } = await e.db.raw(`SELECT 1 FROM ${ADDRESSES.table} a WHERE ${inScope(p, ADDRESSES, "a")} AND ${HOST} = ANY(?::inet[]) LIMIT 1`, [candidates] as unknown as string[]);
  return rows.length ? undefined : { ...room, p };
}

/** The ranges without their addresses up to `last`. */
const after = (free: Range[], last: bigint): Range[] => free.flatMap((r) => (r.hi <= last ? [] : [{ lo: r.lo > last ? r.lo : last + 1n, hi: r.hi }]));

export const allocate = {
  /** Each item's `prefix_length` becomes the first free block that size, as Nautobot allocates. */
  async "available-prefixes"(e: AllocateEvent): Promise<Allocation> {
    const p = (e.memo.parent as Parent | undefined) ?? await parent(e.db, e.id!);
    // Nautobot checks every item as one list, so even a single object's errors come as a list.
    const errors = e.items.map((item): FieldErrors => {
      const length = item.prefix_length;
      if (length === undefined || length === null) return { prefix_length: ["this field can not be missing"] };
      if (typeof length !== "number" || !Number.isInteger(length)) return { prefix_length: ["this field must be int type"] };
      if (length > bitsOf(p.family) || length < 0) return { prefix_length: [`Invalid prefix length (${length}) for IPv${p.family}`] };
      return {};
    });
    if (errors.some((x) => Object.keys(x).length)) throw new ValidationError(errors);
    let free = (e.memo.free as Range[] | undefined) ?? await freePrefixes(e.db, p);
    const create: Array<Record<string, unknown>> = [];
    for (const item of e.items) {
      // The parent may be named in the item too (the Ansible collection sends `parent`):
      // Nautobot's serializer ignores it, and so does this.
      const { prefix_length: length, parent: _parent, ...rest } = item;
      const block = free.flatMap((r) => blocksOf(p.family, r.lo, r.hi)).find((b) => b.length <= (length as number));
      if (!block) return { shortage: "Insufficient space is available to accommodate the requested prefix size(s)" };
      const taken = { lo: block.start, hi: block.start + (1n << BigInt(bitsOf(p.family) - (length as number))) - 1n };
      free = free.flatMap((r) => (r.hi < taken.lo || r.lo > taken.hi ? [r]
        : [...(r.lo < taken.lo ? [{ lo: r.lo, hi: taken.lo - 1n }] : []), ...(r.hi > taken.hi ? [{ lo: taken.hi + 1n, hi: r.hi }] : [])]));
      create.push({ ...rest, prefix: `${formatAddress(p.family, block.start)}/${length}`, vrf: p.vrf });
    }
    Object.assign(e.memo, { parent: p, free });
    return { create };
  },
  /**
   * Each item becomes the next free address, with the prefix's mask and VRF. The walk to the
   * first free addresses costs what the used ones below them cost: one walk finds room for
   * every request queued behind this one, which take it from the memo.
   */
  async "available-ips"(e: AllocateEvent): Promise<Allocation> {
    const wanted = e.items.length;
    let room = (e.memo.room as Room | undefined) ?? await carriedRoom(e);
    if (!room || room.valid < wanted) {
      const p = room?.p ?? await parent(e.db, e.id!);
      const n = Math.max(e.queued, ROOM);
      room = { p, free: await freeAddresses(e.db, p, n), valid: n };
    }
    const { p } = room;
    const addresses = firstAddresses(room.free, wanted);
    if (addresses.length < wanted) {
      e.memo.room = e.carried.room = room;
      const size = await freeCount(e.db, p);
      return { shortage: `An insufficient number of IP addresses are available within the prefix ${p.prefix} (${wanted} requested, ${size} available)` };
    }
    const last = addresses.at(-1);
    e.memo.room = e.carried.room = last === undefined ? room : { p, free: after(room.free, last), valid: room.valid - wanted };
    // The parent may be named in the item too (the Ansible collection sends `prefix`):
    // Nautobot's serializer ignores it, and so does this.
    return { create: e.items.map(({ prefix: _prefix, ...item }, i) => ({ ...item, address: `${formatAddress(p.family, addresses[i])}/${p.length}`, vrf: p.vrf })) };
  },
};
