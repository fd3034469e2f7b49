/**
 * An inbound webhook's replay protection (issue 40): the Standard Webhooks requirement and "reject a
 * repeated X-Service-Signature within 5 minutes". Each checkbox saves at once through
 * `updateInboundWebhook`: the box shows the new state while it saves, and the server's state once reloaded
 * (the old one again if the change was refused, with the error under it).
 */
import { useEffect, useState } from 'react';
import { useMutation } from 'urql';
import { ErrorView } from '../../components/ErrorView';
import { graphql } from '../../lib/graphql';

const UpdateReplay = graphql(`
  mutation ConsoleUpdateInboundReplay($id: ID!, $input: UpdateInboundWebhookInput!) {
    updateInboundWebhook(id: $id, input: $input) {
      id
      requireStandardWebhooks
      rejectRepeatedSignature
    }
  }
`);

export function ReplayProtection(props: {
  hook: { id: string; name: string; requireStandardWebhooks: boolean; rejectRepeatedSignature: boolean };
  deniedBecause: string | null;
  onDone: () => void;
}) {
  const { hook } = props;
  const [state, update] = useMutation(UpdateReplay);
  const [shown, setShown] = useState({
    requireStandardWebhooks: hook.requireStandardWebhooks,
    rejectRepeatedSignature: hook.rejectRepeatedSignature,
  });
  useEffect(
    () =>
      setShown({
        requireStandardWebhooks: hook.requireStandardWebhooks,
        rejectRepeatedSignature: hook.rejectRepeatedSignature,
      }),
    [hook.requireStandardWebhooks, hook.rejectRepeatedSignature],
  );
  const save = async (input: { requireStandardWebhooks?: boolean; rejectRepeatedSignature?: boolean }) => {
    const before = shown;
    setShown({ ...shown, ...input });
    const r = await update({ id: hook.id, input });
    if (r.error) setShown(before);
    else props.onDone();
  };
  const disabled = !!props.deniedBecause || state.fetching;
  return (
    <div className="replay" role="group" aria-label={`Replay protection for ${hook.name}`}>
      <label
        className="field checkbox"
        title="webhook-id, webhook-timestamp within 5 minutes, webhook-signature; each id once in 24 hours"
      >
        <input
          type="checkbox"
          aria-label={`Require Standard Webhooks for ${hook.name}`}
          checked={shown.requireStandardWebhooks}
          disabled={disabled}
          onChange={(e) => void save({ requireStandardWebhooks: e.target.checked })}
        />
        <span className="field-label">Require Standard Webhooks (signed id and timestamp)</span>
      </label>
      <label
        className="field checkbox"
        title="For senders that cannot timestamp: the same signature twice within 5 minutes is a 409"
      >
        <input
          type="checkbox"
          aria-label={`Reject repeated signatures for ${hook.name}`}
          checked={shown.rejectRepeatedSignature}
          disabled={disabled}
          onChange={(e) => void save({ rejectRepeatedSignature: e.target.checked })}
        />
        <span className="field-label">Reject a repeated X-Service-Signature within 5 minutes</span>
      </label>
      {props.deniedBecause && <small className="reason">{props.deniedBecause}</small>}
      <ErrorView error={state.error ?? null} />
    </div>
  );
}
