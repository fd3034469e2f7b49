/** A time shown relative to now ("5 min ago"), with the exact time on hover (title) and in `dateTime`. */
import { relative, when } from '../lib/format';

export function Ago({ at }: { at: string | null | undefined }) {
  if (!at) return <>—</>;
  return (
    <time dateTime={at} title={when(at)}>
      {relative(at)}
    </time>
  );
}
