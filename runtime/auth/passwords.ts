// Password hashing with Node's scrypt: `scrypt$<N>$<salt>$<hash>`, compared in constant time.
// Nothing else in the runtime sees a plain password after it is hashed here.
import { randomBytes, scrypt as scryptCb, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

const scrypt = promisify(scryptCb) as (pw: string, salt: string, len: number, opts: { N: number }) => Promise<Buffer>;
const N = 16384;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16).toString("hex");
  const hash = await scrypt(password, salt, 32, { N });
  return `scrypt$${N}$${salt}$${hash.toString("hex")}`;
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = (stored ?? "").split("$");
  if (parts.length !== 4 || parts[0] !== "scrypt") return false;
  const expected = Buffer.from(parts[3], "hex");
  const actual = await scrypt(password, parts[2], expected.length, { N: Number(parts[1]) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export function randomHex(chars: number): string {
  return randomBytes(Math.ceil(chars / 2)).toString("hex").slice(0, chars);
}
