/**
 * Integrations and their health: the list with each one's verdict (live on `integrationHealthChanged`),
 * a form built from the chosen provider's config schema (secret fields as password inputs), a dry run
 * that tests the config and probes the remote, a health check now (`integrationHealth(refresh: true)`),
 * pull now, enable/disable, rotate the push credential (shown once), delete. Admins change; members read
 * and check.
 */
import { useState } from 'react';
import { useClient, useMutation } from 'urql';
import { ActionButton } from '../components/ActionButton';
import { DataTable } from '../components/DataTable';
import { CheckboxField, MutationForm, SelectField, TextField } from '../components/Field';
import { Badge, Card, Page } from '../components/Page';
import { CopyButton } from '../components/CopyButton';
import { useLiveQuery } from '../components/useLive';
import { useMe } from '../lib/session';
import { adminOnly } from '../lib/permissions';
import { when } from '../lib/format';
import { graphql, type VariablesOf } from '../lib/graphql';
import { ConfigFields, configOf } from '../components/ConfigFields';
import { HealthFields, HealthView } from './integrations/Health';

const IntegrationsQuery = graphql(
  `
    query ConsoleIntegrations {
      integrations {
        id
        name
        provider
        enabled
        freshnessSeconds
        pushUrl
        pushTokenPrefix
        previousPushTokenValidUntil
        lastEventAt
        lastPullAt
        lastError
        health {
          ...ConsoleIntegrationHealth
        }
        healthHistory(limit: 10) {
          checkedAt
          status
          reason
        }
      }
      integrationProviders {
        id
        name
        description
        capabilities {
          push
          pull
          health
        }
        configSchema
        secretFields
      }
    }
  `,
  [HealthFields],
);
const HealthChanged = graphql(`
  subscription ConsoleIntegrationHealthChanged {
    integrationHealthChanged {
      integrationId
      status
      previousStatus
    }
  }
`);
const CheckHealth = graphql(
  `
    query ConsoleCheckIntegrationHealth($id: ID!) {
      integrationHealth(id: $id, refresh: true) {
        ...ConsoleIntegrationHealth
      }
    }
  `,
  [HealthFields],
);
const CreateIntegration = graphql(`
  mutation ConsoleCreateIntegration($input: CreateIntegrationInput!, $dryRun: Boolean) {
    createIntegration(input: $input, dryRun: $dryRun) {
      pushToken
      integration {
        id
        name
      }
      dryRun {
        configOk
        reachable {
          ok
          message
          latencyMs
        }
      }
    }
  }
`);
const UpdateIntegration = graphql(`
  mutation ConsoleUpdateIntegration($id: ID!, $input: UpdateIntegrationInput!) {
    updateIntegration(id: $id, input: $input) {
      id
      enabled
    }
  }
`);
const DeleteIntegration = graphql(`
  mutation ConsoleDeleteIntegration($id: ID!) {
    deleteIntegration(id: $id)
  }
`);
const RotatePushToken = graphql(`
  mutation ConsoleRotateIntegrationPushToken($id: ID!) {
    rotateIntegrationPushToken(id: $id) {
      pushToken
      integration {
        id
        name
        pushTokenPrefix
        previousPushTokenValidUntil
      }
    }
  }
`);
const IngestNow = graphql(`
  mutation ConsoleIngestIntegration($provider: String!) {
    ingestIntegration(provider: $provider) {
      provider
      hint
      events
      alertsOpened
      alertsResolved
      integrations {
        integrationId
        name
        ok
        error
      }
    }
  }
`);

type CreateInput = VariablesOf<typeof CreateIntegration>['input'];

export function Integrations() {
  const me = useMe();
  const denied = adminOnly(me);
  const client = useClient();
  const { result, refetch } = useLiveQuery({ query: IntegrationsQuery, variables: {}, subscription: HealthChanged });
  const [, create] = useMutation(CreateIntegration);
  const [, update] = useMutation(UpdateIntegration);
  const [, remove] = useMutation(DeleteIntegration);
  const [, rotate] = useMutation(RotatePushToken);
  const [, ingest] = useMutation(IngestNow);
  const providers = result.data?.integrationProviders ?? [];
  const [form, setForm] = useState({ provider: '', name: '', freshness: '', enabled: true });
  const [config, setConfig] = useState<Record<string, string>>({});
  const [secret, setSecret] = useState<{ name: string; token: string; url: string | null } | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const provider = providers.find((p) => p.id === (form.provider || providers[0]?.id));

  async function submit(dryRun: boolean) {
    if (!provider) return;
    const input: CreateInput = {
      provider: provider.id,
      name: form.name,
      enabled: form.enabled,
      config: configOf(provider, config),
    };
    if (form.freshness) input.freshnessSeconds = Number(form.freshness);
    const r = await create({ input, dryRun });
    const p = r.data?.createIntegration;
    if (p?.dryRun)
      setNote(
        `Dry run: config ${p.dryRun.configOk ? 'valid' : 'invalid'}; ${p.dryRun.reachable ? `remote ${p.dryRun.reachable.ok === null ? 'not probed' : p.dryRun.reachable.ok ? 'reachable' : 'unreachable'}: ${p.dryRun.reachable.message}` : 'no probe'}. Nothing was saved.`,
      );
    if (p?.integration) {
      setNote(null);
      if (p.pushToken) setSecret({ name: p.integration.name, token: p.pushToken, url: null });
      setForm({ ...form, name: '' });
      setConfig({});
    }
    return r;
  }

  return (
    <Page title="Integrations" error={result.error} loading={result.fetching && !result.data}>
      {secret && (
        <Card title="Push token">
          <p>
            The push token of <strong>{secret.name}</strong> is shown only this once. The system sends it as{' '}
            <code>Authorization: Bearer …</code>.
          </p>
          <p className="secret">
            <code aria-label="Push token value">{secret.token}</code>{' '}
            <CopyButton text={secret.token} label="Copy push token" />
          </p>
          <button type="button" className="plain" onClick={() => setSecret(null)}>
            Done
          </button>
        </Card>
      )}
      {note && (
        <p role="status" className="card">
          {note}
        </p>
      )}
      <DataTable
        caption="Integrations"
        rows={result.data?.integrations}
        rowKey={(i) => i.id}
        empty="No integrations: connect a monitoring system below."
        columns={[
          { header: 'Name', cell: (i) => i.name },
          { header: 'Provider', cell: (i) => i.provider },
          {
            header: 'Health',
            cell: (i) => (
              <>
                <HealthView health={i.health} />
                {i.healthHistory.length > 0 && (
                  <details>
                    <summary>History</summary>
                    <ol className="checks" aria-label={`Health history of ${i.name}`}>
                      {i.healthHistory.map((h, n) => (
                        <li key={n}>
                          {when(h.checkedAt)} <Badge value={h.status} /> {h.reason ?? ''}
                        </li>
                      ))}
                    </ol>
                  </details>
                )}
              </>
            ),
          },
          { header: 'Enabled', cell: (i) => (i.enabled ? 'yes' : 'no') },
          {
            header: 'Push URL',
            cell: (i) =>
              i.pushUrl ? (
                <span>
                  <code>{i.pushUrl}</code> {i.pushTokenPrefix && <small>token {i.pushTokenPrefix}…</small>}
                </span>
              ) : (
                '—'
              ),
            wide: true,
          },
          { header: 'Last event', cell: (i) => when(i.lastEventAt), wide: true },
          {
            header: 'Actions',
            cell: (i) => {
              const p = providers.find((x) => x.id === i.provider);
              return (
                <div className="row-actions" role="group" aria-label={`Actions for ${i.name}`}>
                  <ActionButton
                    run={() => client.query(CheckHealth, { id: i.id }, { requestPolicy: 'network-only' }).toPromise()}
                    onDone={refetch}
                  >
                    Check health
                  </ActionButton>
                  {p?.capabilities.pull && (
                    <ActionButton
                      run={async () => {
                        const r = await ingest({ provider: i.provider });
                        const x = r.data?.ingestIntegration;
                        // With no enabled integration of the provider nothing is pulled: the hint says what to do.
                        if (x)
                          setNote(
                            x.hint
                              ? `Nothing pulled from ${i.provider}. ${x.hint}`
                              : `Pulled ${i.provider}: ${x.events} events, ${x.alertsOpened} alerts opened, ${x.alertsResolved} resolved${x.integrations
                                  .filter((y) => !y.ok)
                                  .map((y) => `; ${y.name}: ${y.error}`)
                                  .join('')}.`,
                          );
                        return r;
                      }}
                      onDone={refetch}
                    >
                      Pull now
                    </ActionButton>
                  )}
                  <ActionButton
                    run={() => update({ id: i.id, input: { enabled: !i.enabled } })}
                    deniedBecause={denied}
                    onDone={refetch}
                  >
                    {i.enabled ? 'Disable' : 'Enable'}
                  </ActionButton>
                  {p?.capabilities.push && (
                    <ActionButton
                      confirm={`Rotate the push token of ${i.name}? The old one keeps working for 24 hours.`}
                      run={async () => {
                        const r = await rotate({ id: i.id });
                        if (r.data)
                          setSecret({
                            name: i.name,
                            token: r.data.rotateIntegrationPushToken.pushToken,
                            url: i.pushUrl,
                          });
                        return r;
                      }}
                      deniedBecause={denied}
                      onDone={refetch}
                    >
                      Rotate push token
                    </ActionButton>
                  )}
                  <ActionButton
                    variant="danger"
                    confirm={`Delete ${i.name} and its health history? Its alerts stay.`}
                    run={() => remove({ id: i.id })}
                    deniedBecause={denied}
                    onDone={refetch}
                  >
                    Delete
                  </ActionButton>
                </div>
              );
            },
          },
        ]}
      />
      <MutationForm
        title="Connect a system"
        submitLabel="Create integration"
        deniedBecause={denied}
        onSubmit={() => submit(false)}
        onDone={refetch}
      >
        <SelectField
          label="Provider"
          value={provider?.id ?? ''}
          onChange={(p) => {
            setForm({ ...form, provider: p });
            setConfig({});
          }}
          options={providers.map((p) => ({ value: p.id, label: p.name }))}
          hint={provider?.description}
        />
        <TextField
          label="Integration name"
          value={form.name}
          onChange={(name) => setForm({ ...form, name })}
          required
        />
        <TextField
          label="Expect an event every (seconds)"
          type="number"
          value={form.freshness}
          onChange={(freshness) => setForm({ ...form, freshness })}
          hint="empty: no freshness check"
        />
        <CheckboxField label="Enabled" checked={form.enabled} onChange={(enabled) => setForm({ ...form, enabled })} />
        {provider && <ConfigFields provider={provider} values={config} onChange={setConfig} />}
      </MutationForm>
      <ActionButton run={() => submit(true)} deniedBecause={denied}>
        Test config (dry run)
      </ActionButton>
    </Page>
  );
}
