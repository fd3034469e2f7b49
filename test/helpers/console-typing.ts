/**
 * The scan test/console-bundle.test.ts runs over console/src/pages: signs that a result the console
 * renders is typed by hand instead of from its gql.tada document.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildSchema, isInterfaceType, isObjectType } from 'graphql';

/** Object and interface types of the schema: what a hand-written result interface would copy. */
const schemaTypes = (() => {
  const schema = buildSchema(fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'schema.graphql'), 'utf8'));
  return Object.values(schema.getTypeMap())
    .filter((t) => (isObjectType(t) || isInterfaceType(t)) && !t.name.startsWith('__'))
    .map((t) => t.name);
})();

/**
 * What in one source file shows a result typed by hand: the untyped `gql` tag (its result is whatever
 * the generic says, `unknown` when nothing); explicit result generics on documents and urql hooks;
 * `as unknown` casts; an interface or object type alias named after a schema type (`Sku` for
 * `BillingSku`) or after a result (`…Result`, `…Data`); a fragment nobody reads.
 */
export function handTyped(text: string): string[] {
  const found: string[] = [];
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  if (/import\s*{[^}]*\bgql\b[^}]*}\s*from\s*'urql'/.test(code) || /\bgql\s*(<[^`]*?>)?\s*`/.test(code))
    found.push('gql tag (untyped document)');
  for (const m of code.matchAll(/\b(useQuery|useMutation|useSubscription|graphql)\s*</g))
    found.push(`${m[1]}<…> (result typed by hand)`);
  if (/\bas\s+unknown\b/.test(code)) found.push('as unknown');
  for (const m of code.matchAll(/\b(?:interface\s+([A-Z]\w*)\b[^{=]*{|type\s+([A-Z]\w*)(?:<[^>]*>)?\s*=\s*{)/g)) {
    const name = m[1] ?? m[2];
    if (/(Result|Data|Doc|Response|Payload)$/.test(name)) found.push(`${name} (a result type by hand)`);
    else if (schemaTypes.some((t) => t === name || (t.endsWith(name) && /[a-z]$/.test(t.slice(0, -name.length)))))
      found.push(`${name} (copies a schema type)`);
  }
  if (/\bfragment\s+\w+\s+on\s+\w+/.test(code) && !/\breadFragment\(/.test(code))
    found.push('a fragment declared and never read');
  return found;
}
