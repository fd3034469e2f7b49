/**
 * Alertmanager's matcher text, as amtool and its UI write it: `alertname="NodeDown", instance=~"db-.*"`
 * (braces optional, values quoted or bare), to and from the GraphQL `LabelMatcherInput` shape. The server
 * validates every matcher again (regexes included) and says what to fix.
 */
export type MatcherOp = 'EQUAL' | 'NOT_EQUAL' | 'REGEX' | 'NOT_REGEX';

const OPS: Record<string, MatcherOp> = { '=': 'EQUAL', '!=': 'NOT_EQUAL', '=~': 'REGEX', '!~': 'NOT_REGEX' };
const TEXT: Record<MatcherOp, string> = { EQUAL: '=', NOT_EQUAL: '!=', REGEX: '=~', NOT_REGEX: '!~' };
const ONE = /^\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(=~|!~|!=|=)\s*(.*?)\s*$/;

/** Splits on commas outside double quotes. */
function split(text: string): string[] {
  const parts: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '\\' && i + 1 < text.length) {
      cur += c + text[i + 1];
      i++;
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === ',' && !quoted) {
      parts.push(cur);
      cur = '';
    } else cur += c;
  }
  parts.push(cur);
  return parts.filter((p) => p.trim() !== '');
}

function unquote(v: string): string {
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"'))
    return v
      .slice(1, -1)
      .replace(/\\(["\\])/g, '$1')
      .replace(/\\n/g, '\n');
  return v;
}

/** The matchers of the text; throws an Error naming the part it cannot read. */
export function parseMatcherText(text: string): Array<{ name: string; type: MatcherOp; value: string }> {
  const inner = text.trim().replace(/^\{/, '').replace(/\}$/, '');
  return split(inner).map((part) => {
    const m = ONE.exec(part);
    if (!m)
      throw new Error(
        `Cannot read the matcher "${part.trim()}": write name="value", name!="value", name=~"regex" or name!~"regex".`,
      );
    return { name: m[1]!, type: OPS[m[2]!]!, value: unquote(m[3]!) };
  });
}

/** The text of matchers (each value quoted). */
export function matcherText(ms: ReadonlyArray<{ name: string; type: string; value: string }>): string {
  return ms.map((m) => `${m.name}${TEXT[m.type as MatcherOp] ?? m.type}${JSON.stringify(m.value)}`).join(', ');
}

/** Equality matchers for every string label: what "Silence" on an alert starts from. */
export function labelsToMatcherText(labels: unknown): string {
  if (!labels || typeof labels !== 'object') return '';
  return matcherText(
    Object.entries(labels as Record<string, unknown>)
      .filter((e): e is [string, string] => typeof e[1] === 'string')
      .map(([name, value]) => ({ name, type: 'EQUAL', value })),
  );
}
