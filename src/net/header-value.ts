/**
 * The one rule for a secret sent in an HTTP header (`Authorization: Bearer <value>`): an integration's
 * token (src/integrations/config.ts) and an ntfy contact method's token (src/notifications/contact-methods.ts).
 */

/**
 * Why a value cannot be sent as it is in an HTTP header, or null. A token is visible ASCII (RFC 6750
 * b64token and RFC 9110 field values); anything else (a space, a control character such as CR or LF, "…" or
 * other non-ASCII) would be refused by the HTTP client ("Invalid character in header content") or, sent
 * raw, would add headers of its own.
 */
export function headerValueProblem(v: string): string | null {
  if (v.includes('…') || v.trim() === '...') return 'is a placeholder ("…"), not a token: give the real token';
  const chars = [...v];
  const at = chars.findIndex((ch) => ch < '!' || ch > '~');
  if (at < 0) return null;
  const code = chars[at]!.codePointAt(0)!;
  const what =
    code === 0x20
      ? 'a space'
      : code < 0x20 || code === 0x7f
        ? `a control character (U+${code.toString(16).padStart(4, '0').toUpperCase()})`
        : `"${chars[at]}" (U+${code.toString(16).padStart(4, '0').toUpperCase()})`;
  return `must be visible ASCII without spaces, as it is sent in an HTTP header; character ${at + 1} is ${what}`;
}
