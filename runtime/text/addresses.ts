// IP addresses as numbers, for free-space arithmetic: the database finds the gaps between
// what is used, and these turn a gap's ends into addresses and the fewest CIDR blocks that
// cover it (netaddr's IPSet.iter_cidrs), exactly for IPv6 too (bigint, no float rounding).

export type Family = 4 | 6;

export const bitsOf = (family: Family): number => (family === 4 ? 32 : 128);

/** An address as netaddr and inet::text write it, with its prefix length (the driver leaves off a host's /32 or /128). */
export function withLength(address: string): string {
  return address.includes("/") ? address : `${address}/${bitsOf(parseAddress(address).family)}`;
}

/** An address (a mask, when present, is ignored) as its family and number. */
export function parseAddress(text: string): { family: Family; value: bigint } {
  const host = text.split("/")[0];
  if (!host.includes(":")) return { family: 4, value: host.split(".").reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n) };
  const [head, tail] = host.split("::");
  const groups = (s: string | undefined) => (s ? s.split(":") : []);
  const lead = groups(head);
  const trail = groups(tail);
  // An embedded IPv4 tail (::ffff:192.0.2.1) stands for the last two groups.
  const last = trail.length ? trail : lead;
  if (last.length && last[last.length - 1].includes(".")) {
    const v4 = parseAddress(last.pop()!).value;
    last.push((v4 >> 16n).toString(16), (v4 & 0xffffn).toString(16));
  }
  const fill = tail === undefined ? [] : Array(8 - lead.length - trail.length).fill("0");
  return { family: 6, value: [...lead, ...fill, ...trail].reduce((n, g) => (n << 16n) | BigInt(parseInt(g, 16)), 0n) };
}

/** An address in its canonical text: dotted quad, or RFC 5952's compressed IPv6 form. */
export function formatAddress(family: Family, value: bigint): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join(".");
  const groups = [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((s) => Number((value >> s) & 0xffffn));
  // The longest run of two or more zero groups (the first of equals) becomes "::".
  let best = { at: -1, len: 1 };
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.len) best = { at: i, len: j - i };
    i = j === i ? i + 1 : j;
  }
  const hex = (gs: number[]) => gs.map((g) => g.toString(16)).join(":");
  if (best.at < 0) return hex(groups);
  return `${hex(groups.slice(0, best.at))}::${hex(groups.slice(best.at + best.len))}`;
}

/** The fewest aligned blocks covering `lo`…`hi` (inclusive), in address order, as start and mask length. */
export function blocksOf(family: Family, lo: bigint, hi: bigint): Array<{ start: bigint; length: number }> {
  const bits = bitsOf(family);
  const out: Array<{ start: bigint; length: number }> = [];
  let start = lo;
  while (start <= hi) {
    let size = bits;
    // Grow the block while it stays aligned at `start` and inside the range.
    while (size > 0) {
      const span = 1n << BigInt(bits - size + 1);
      if (start % span !== 0n || start + span - 1n > hi) break;
      size--;
    }
    out.push({ start, length: size });
    start += 1n << BigInt(bits - size);
  }
  return out;
}
