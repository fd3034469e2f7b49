/** Shows a server refusal or failure as it came (status, machine reason, message): never swallowed. */
import type { CombinedError } from 'urql';
import { describeError, errorTitle } from '../lib/errors';

export function ErrorView({ error }: { error: CombinedError | Error | string | null | undefined }) {
  if (!error) return null;
  return (
    <div role="alert" className="error">
      {describeError(error).map((e, i) => (
        <p key={i}>
          <strong>{errorTitle(e)}</strong>: {e.message}
        </p>
      ))}
    </div>
  );
}
