/**
 * An SQL identifier (a table, schema or column name) quoted for statement text: double quotes around it,
 * and any double quote inside doubled.
 */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
