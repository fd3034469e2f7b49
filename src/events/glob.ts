/**
 * Type globs matched in linear time, without a backtracking regex.
 *
 * The syntax is the alert-rule one: `*` matches any run of characters except `.`, `**` any run
 * including `.`, `?` one character; everything else is literal, and the whole type must match. A
 * backtracking regex of `*a*a*a*a…` against a long type costs exponential time (a tenant admin could
 * stall the process with one rule); here the glob is a list of steps and the text is read once,
 * carrying the set of steps reachable so far (Thompson's construction, as RE2 and Go's `path.Match`
 * do): at most glob × type steps, whatever the input.
 *
 * `?` and `**` stop at a line terminator and `*` does not, exactly as the regexes they replace
 * (`.`, `.*`, `[^.]*`) did.
 */

const LITERAL = 0;
/** `?`: one character. */
const ONE = 1;
/** `*`: a run without `.`. */
const SEGMENT = 2;
/** `**`: any run. */
const ANY = 3;

interface CompiledGlob {
  kinds: Uint8Array;
  /** The character code of each LITERAL step. */
  chars: Uint16Array;
}

function isLineTerminator(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
}

const DOT = 0x2e;

function compileGlob(glob: string): CompiledGlob {
  const kinds: number[] = [];
  const chars: number[] = [];
  for (let i = 0; i < glob.length; i++) {
    const code = glob.charCodeAt(i);
    if (code === 0x2a /* * */) {
      if (glob.charCodeAt(i + 1) === 0x2a) {
        kinds.push(ANY);
        i++;
      } else kinds.push(SEGMENT);
      chars.push(0);
    } else if (code === 0x3f /* ? */) {
      kinds.push(ONE);
      chars.push(0);
    } else {
      kinds.push(LITERAL);
      chars.push(code);
    }
  }
  return { kinds: Uint8Array.from(kinds), chars: Uint16Array.from(chars) };
}

const cache = new Map<string, CompiledGlob>();

function compiled(glob: string): CompiledGlob {
  let c = cache.get(glob);
  if (c) return c;
  c = compileGlob(glob);
  if (cache.size > 10_000) cache.clear();
  cache.set(glob, c);
  return c;
}

/** Marks step `i` and every step after a run of repeatable steps (`*`, `**` may match nothing). */
function enter(set: Uint8Array, kinds: Uint8Array, i: number): void {
  while (i < kinds.length && set[i] === 0) {
    set[i] = 1;
    if (kinds[i] !== SEGMENT && kinds[i] !== ANY) return;
    i++;
  }
  if (i === kinds.length) set[i] = 1;
}

/** True when the whole of `text` matches `glob`; costs at most `glob.length × text.length` steps. */
export function globMatch(glob: string, text: string): boolean {
  const { kinds, chars } = compiled(glob);
  const n = kinds.length;
  let current = new Uint8Array(n + 1);
  let next = new Uint8Array(n + 1);
  enter(current, kinds, 0);
  for (let p = 0; p < text.length; p++) {
    const code = text.charCodeAt(p);
    next.fill(0);
    let alive = false;
    for (let i = 0; i < n; i++) {
      if (current[i] === 0) continue;
      const kind = kinds[i];
      let to = -1;
      if (kind === LITERAL) to = chars[i] === code ? i + 1 : -1;
      else if (kind === ONE) to = isLineTerminator(code) ? -1 : i + 1;
      else if (kind === SEGMENT) to = code === DOT ? -1 : i;
      else to = isLineTerminator(code) ? -1 : i;
      if (to < 0) continue;
      enter(next, kinds, to);
      alive = true;
    }
    if (!alive) return false;
    [current, next] = [next, current];
  }
  return current[n] === 1;
}
