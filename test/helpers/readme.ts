/** The README's runnable parts, as test/quickstart.test.ts and test/readme-using-it.test.ts read them. */

/** The fenced ```bash blocks of the README's "## Quickstart" section, in order. */
export function quickstartBlocks(readme: string): string[] {
  const start = readme.indexOf('\n## Quickstart');
  if (start < 0) throw new Error('README.md has no "## Quickstart" section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}
