/**
 * Clusters: other installations that joined this one (the hub) with an invite, with their last
 * heartbeat (open alerts by severity, devices); admins mint single-use invites (the token and the join
 * command shown once) and revoke a member.
 */
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { ActionButton } from '../components/ActionButton';
import { DataTable } from '../components/DataTable';
import { MutationForm, TextField } from '../components/Field';
import { Badge, Card, Page } from '../components/Page';
import { CopyButton } from '../components/CopyButton';
import { useMe } from '../lib/session';
import { adminOnly } from '../lib/permissions';
import { when } from '../lib/format';
import { graphql, type Json, type ResultOf } from '../lib/graphql';

const ClustersQuery = graphql(`
  query ConsoleClusters {
    clusters {
      id
      name
      status
      url
      version
      lastSeenAt
      createdAt
      revokedAt
      summary
    }
  }
`);
const CreateInvite = graphql(`
  mutation ConsoleCreateClusterInvite($expiresInHours: Int, $hubUrl: String) {
    createClusterInvite(expiresInHours: $expiresInHours, hubUrl: $hubUrl) {
      id
      token
      command
      expiresAt
    }
  }
`);
const RevokeCluster = graphql(`
  mutation ConsoleRevokeCluster($id: ID!) {
    revokeCluster(id: $id) {
      id
      status
      revokedAt
    }
  }
`);

type Invite = ResultOf<typeof CreateInvite>['createClusterInvite'];

/** The member's last heartbeat summary (JSON: `open_alerts` by severity, `device_count`), as text. */
function summaryOf(summary: Json): { openAlerts: string; devices: string } {
  const s =
    summary && typeof summary === 'object' && !Array.isArray(summary)
      ? Object.fromEntries(Object.entries(summary))
      : {};
  const open = s.open_alerts && typeof s.open_alerts === 'object' ? Object.entries(s.open_alerts) : null;
  return {
    openAlerts: open ? open.map(([k, v]) => `${k} ${String(v)}`).join(' · ') : '—',
    devices: typeof s.device_count === 'number' ? String(s.device_count) : '—',
  };
}

export function Clusters() {
  const me = useMe();
  const denied = adminOnly(me);
  const [result, refetch] = useQuery({ query: ClustersQuery, requestPolicy: 'cache-and-network' });
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const [, createInvite] = useMutation(CreateInvite);
  const [, revoke] = useMutation(RevokeCluster);
  const [form, setForm] = useState({ hours: '24', hubUrl: '' });
  const [invite, setInvite] = useState<Invite | null>(null);

  return (
    <Page title="Clusters" error={result.error} loading={result.fetching && !result.data}>
      {invite && (
        <Card title="New invite">
          <p>Single use, until {when(invite.expiresAt)}. Shown only this once. On the member installation, run:</p>
          <pre aria-label="Join command">{invite.command}</pre>
          <p className="secret">
            <code aria-label="Invite token">{invite.token}</code>{' '}
            <CopyButton text={invite.command} label="Copy join command" />
          </p>
          <button type="button" className="plain" onClick={() => setInvite(null)}>
            Done
          </button>
        </Card>
      )}
      <DataTable
        caption="Member clusters"
        rows={result.data?.clusters}
        rowKey={(c) => c.id}
        empty="No member clusters: mint an invite and run its command on the other installation."
        columns={[
          { header: 'Name', cell: (c) => c.name },
          { header: 'Status', cell: (c) => <Badge value={c.status} /> },
          { header: 'Open alerts', cell: (c) => summaryOf(c.summary).openAlerts },
          { header: 'Devices', cell: (c) => summaryOf(c.summary).devices, wide: true },
          { header: 'Last heartbeat', cell: (c) => when(c.lastSeenAt) },
          { header: 'Version', cell: (c) => c.version ?? '—', wide: true },
          { header: 'URL', cell: (c) => c.url ?? '—', wide: true },
          {
            header: 'Actions',
            cell: (c) => (
              <ActionButton
                variant="danger"
                confirm={`Revoke ${c.name}? Its next call is refused.`}
                run={() => revoke({ id: c.id })}
                deniedBecause={denied ?? (c.status === 'REVOKED' ? 'Already revoked.' : null)}
                onDone={reload}
              >
                Revoke
              </ActionButton>
            ),
          },
        ]}
      />
      <MutationForm
        title="Invite a cluster"
        submitLabel="Create invite"
        deniedBecause={denied}
        onSubmit={async () => {
          const r = await createInvite({
            expiresInHours: form.hours ? Number(form.hours) : undefined,
            hubUrl: form.hubUrl || undefined,
          });
          if (r.data) setInvite(r.data.createClusterInvite);
          return r;
        }}
      >
        <TextField
          label="Expires after (hours)"
          type="number"
          value={form.hours}
          onChange={(hours) => setForm({ ...form, hours })}
        />
        <TextField
          label="Hub URL"
          value={form.hubUrl}
          onChange={(hubUrl) => setForm({ ...form, hubUrl })}
          hint="Where members reach this installation (default: PUBLIC_BASE_URL or this page's origin)"
        />
      </MutationForm>
    </Page>
  );
}
