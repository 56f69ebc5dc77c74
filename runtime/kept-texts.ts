// Texts a process keeps to skip work it did before (statement texts built from a plan, the
// names statements run under), bounded by the characters they hold rather than by their
// number: a statement of a list of devices is some 40 KB, so a bound of thousands of entries
// let a server that met many shapes of filter hold hundreds of megabytes.

/** A map that forgets its least recently used entries once they weigh more than `budget` characters. */
export class KeptTexts<V> {
  private readonly entries = new Map<string, { value: V; weight: number }>();
  private weight = 0;

  /** `weigh`: the characters an entry holds besides its key. */
  constructor(private readonly budget: number, private readonly weigh: (value: V) => number = () => 0) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    this.delete(key);
    const weight = key.length + this.weigh(value);
    this.entries.set(key, { value, weight });
    this.weight += weight;
    for (const [old, entry] of this.entries) {
      if (this.weight <= this.budget || old === key) break;
      this.entries.delete(old);
      this.weight -= entry.weight;
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
  }

  /** The characters held, keys included. */
  get held(): number {
    return this.weight;
  }

  get size(): number {
    return this.entries.size;
  }
}
