/**
 * Validation of proposal input (open and update).
 */
import { ValidationFailed, type FieldProblem } from '../errors.js';
import { MAX_CONFIG_BYTES } from '../devices/devices.js';

export interface ProposalFields {
  title?: string | null;
  kind?: string | null;
  deviceId?: string | null;
  proposedIntent?: string | null;
  action?: string | null;
  reason?: string | null;
}

/** `kind` is freeform but shaped like an identifier, since outbound triggers select on it. */
export const PROPOSAL_KIND = /^[a-z][a-z0-9_.-]{0,63}$/;

/**
 * Problems with the fields as they will be stored (`merged`: the proposal after the change). A
 * proposal names a target device and carries exactly one of a proposed intent or an action.
 */
function proposalProblems(merged: ProposalFields, at: string[] = ['input']): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const title = merged.title?.trim();
  if (!title) problems.push({ loc: [...at, 'title'], msg: 'is required' });
  else if (title.length > 200) problems.push({ loc: [...at, 'title'], msg: 'must be at most 200 characters' });
  if (!merged.kind || !PROPOSAL_KIND.test(merged.kind))
    problems.push({
      loc: [...at, 'kind'],
      msg: 'must be a lowercase identifier such as config_change (letters, digits, _ . -)',
    });
  if (!merged.deviceId) problems.push({ loc: [...at, 'deviceId'], msg: 'is required: the target device' });
  const hasIntent = merged.proposedIntent != null;
  const hasAction = merged.action != null && merged.action.trim() !== '';
  if (hasIntent === hasAction)
    problems.push({
      loc: [...at, hasIntent ? 'action' : 'proposedIntent'],
      msg: 'give exactly one of proposedIntent or action',
    });
  if (hasIntent && Buffer.byteLength(merged.proposedIntent!, 'utf8') > MAX_CONFIG_BYTES)
    problems.push({ loc: [...at, 'proposedIntent'], msg: `must be at most ${MAX_CONFIG_BYTES} bytes` });
  if (hasAction && merged.action!.length > 200)
    problems.push({ loc: [...at, 'action'], msg: 'must be at most 200 characters' });
  if (merged.reason != null && merged.reason.length > 5000)
    problems.push({ loc: [...at, 'reason'], msg: 'must be at most 5000 characters' });
  return problems;
}

/** Throws ValidationFailed (422) listing every offending field. */
export function assertValidProposal(merged: ProposalFields, at?: string[]): void {
  const problems = proposalProblems(merged, at);
  if (problems.length) throw new ValidationFailed(problems);
}
