/**
 * The tenant's review rule for intent changes: whether every change needs a proposal a second person
 * approves. On, the admin's direct intent edit is refused by the server (403 PROPOSAL_REQUIRED), and
 * the device page's direct edit is disabled with that reason.
 */
import { useEffect, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { CheckboxField, MutationForm } from '../../components/Field';
import { adminOnly, type Denial } from '../../lib/permissions';
import type { Me } from '../../lib/session';
import { graphql } from '../../lib/graphql';
import type { ActionResult } from '../../components/ActionButton';

const ReviewSettingsQuery = graphql(`
  query ConsoleReviewSettings {
    reviewSettings {
      requireProposals
    }
  }
`);
const SetReviewSettings = graphql(`
  mutation ConsoleSetReviewSettings($input: SetReviewSettingsInput!) {
    setReviewSettings(input: $input) {
      requireProposals
    }
  }
`);

/** Why the direct intent edit is unavailable to `me` (admins only; off while proposals are required). */
export function useDirectEditDenial(me: Me): Denial {
  const [settings] = useQuery({ query: ReviewSettingsQuery });
  if (settings.data?.reviewSettings.requireProposals)
    return 'This tenant requires a reviewed proposal for every intent change: propose it instead.';
  return adminOnly(me);
}

export function RequireProposalsSetting({ me }: { me: Me }) {
  const [settings, refetch] = useQuery({ query: ReviewSettingsQuery });
  const [, save] = useMutation(SetReviewSettings);
  const current = settings.data?.reviewSettings.requireProposals ?? false;
  const [required, setRequired] = useState(current);
  useEffect(() => setRequired(current), [current]);
  return (
    <MutationForm
      title="Review rule"
      submitLabel="Save review rule"
      deniedBecause={adminOnly(me)}
      onSubmit={() => save({ input: { requireProposals: required } })}
      onDone={() => refetch({ requestPolicy: 'network-only' })}
    >
      <CheckboxField
        label="Require a reviewed proposal for every intent change"
        checked={required}
        onChange={setRequired}
      />
      <p className="hint">
        Off: an admin may still edit a device's intent directly; that edit bypasses review and is recorded in the audit
        log as such. On: the direct edit is refused and every change waits for a second person.
      </p>
    </MutationForm>
  );
}

/** The device page's direct intent edit: says that it bypasses review, and is off while proposals are required. */
export function DirectIntentEditForm({
  me,
  run,
  onDone,
}: {
  me: Me;
  run: () => Promise<ActionResult | void>;
  onDone: () => void;
}) {
  return (
    <MutationForm
      title="Edit directly (admins; bypasses review)"
      submitLabel="Save new version"
      deniedBecause={useDirectEditDenial(me)}
      onSubmit={run}
      onDone={onDone}
    >
      <p className="hint">
        Bypasses review: saved at once as a new version with no second person&apos;s approval, recorded on the timeline
        and in the audit log as a change that bypassed review, then reconciled. Propose it instead to have it reviewed.
      </p>
    </MutationForm>
  );
}
