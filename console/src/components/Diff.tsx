/**
 * A unified diff with its removed (−) and added (+) lines marked: the device page's drift and version
 * diffs and a proposal's change read the same way. The text is the diff as given.
 */
function lineClass(line: string): string | undefined {
  if (line.startsWith('+++') || line.startsWith('---')) return 'diff-file';
  if (line.startsWith('@@')) return 'diff-hunk';
  if (line.startsWith('+')) return 'diff-add';
  if (line.startsWith('-')) return 'diff-del';
  return undefined;
}

export function DiffView({ diff, label }: { diff: string; label: string }) {
  const lines = diff.split('\n');
  return (
    <pre className="diff" aria-label={label}>
      {lines.map((line, i) => (
        <span key={i} className={lineClass(line)}>
          {line}
          {i < lines.length - 1 ? '\n' : ''}
        </span>
      ))}
    </pre>
  );
}
