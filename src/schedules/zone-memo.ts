/**
 * A time zone for luxon that remembers its offsets. Shift computation is mostly luxon's zone arithmetic, and each
 * offset of an IANA zone is an `Intl.DateTimeFormat#formatToParts` call (tens of microseconds); a schedule's
 * handoffs and restriction spans ask for the same instants again and again (each window of `onCallAt`, each page of
 * an escalation). An offset is a pure function of (zone, instant), so remembering it changes no answer. The memo
 * holds at most MAX_REMEMBERED offsets per zone and starts afresh when full.
 */
import { IANAZone, Zone, type ZoneOffsetFormat, type ZoneOffsetOptions } from 'luxon';

const MAX_REMEMBERED = 100_000;

class MemoZone extends Zone {
  private readonly offsets = new Map<number, number>();
  constructor(private readonly inner: IANAZone) {
    super();
  }
  override get type(): string {
    return 'iana'; // luxon formats it by name, as the zone it stands for
  }
  override get name(): string {
    return this.inner.name;
  }
  override get isUniversal(): boolean {
    return this.inner.isUniversal;
  }
  override get isValid(): boolean {
    return this.inner.isValid;
  }
  override offsetName(ts: number, opts: ZoneOffsetOptions): string | null {
    return this.inner.offsetName(ts, opts);
  }
  override formatOffset(ts: number, format: ZoneOffsetFormat): string {
    return this.inner.formatOffset(ts, format);
  }
  override offset(ts: number): number {
    let o = this.offsets.get(ts);
    if (o === undefined) {
      if (this.offsets.size >= MAX_REMEMBERED) this.offsets.clear();
      o = this.inner.offset(ts);
      this.offsets.set(ts, o);
    }
    return o;
  }
  override equals(other: Zone): boolean {
    return other.type === 'iana' && other.name === this.name;
  }
}

const zones = new Map<string, Zone>();

/** The remembering zone for an IANA name (one per name). */
export function memoZone(name: string): Zone {
  let z = zones.get(name);
  if (!z) {
    const inner = IANAZone.create(name);
    if (!inner.isValid) return inner; // not remembered: only real zones fill the map
    z = new MemoZone(inner);
    zones.set(name, z);
  }
  return z;
}
