/**
 * REST routes of integrations. Reads and on-demand ingest are open to every user (a member's PAT can
 * investigate); changes need an admin (the GraphQL fields' scopes answer 403). The push endpoint is a
 * handler: its body is whatever the provider's system sends, authenticated by the push token.
 */
import type { RouteEntry } from '../route-types.js';
import { integrationPushAuth, receivePush } from '../../src/integrations/push.js';
import {
  HEALTH_FIELDS,
  INTEGRATION_FIELDS,
  presentDryRun,
  presentHealth,
  presentIngest,
  presentIntegration,
  presentProviderConfig,
} from '../presenters/integrations.js';

const CONFIG_FIELDS = 'provider config secretFields updatedAt integrationCount hint secretsCleared';
const dryRun = (q: Record<string, unknown>) => q.dry_run === true || q.dry_run === 'true';

/** GET/PUT/DELETE of a provider's tenant config at `path`. */
function providerConfigRoutes(path: string): RouteEntry[] {
  return [
    {
      method: 'get',
      path,
      operation: `query IntegrationConfig($provider: String!) { integrationConfig(provider: $provider) { ${CONFIG_FIELDS} } }`,
      variables: (req) => ({ provider: req.params.provider }),
      respond: (data) => presentProviderConfig(data.integrationConfig),
    },
    {
      method: 'put',
      path,
      operation: `mutation SetIntegrationConfig($provider: String!, $config: JSON!) { setIntegrationConfig(provider: $provider, config: $config) { ${CONFIG_FIELDS} } }`,
      variables: (req) => ({ ...req.body, provider: req.params.provider }),
      respond: (data) => presentProviderConfig(data.setIntegrationConfig),
    },
    {
      method: 'delete',
      path,
      operation:
        'mutation DeleteIntegrationConfig($provider: String!) { deleteIntegrationConfig(provider: $provider) }',
      variables: (req) => ({ provider: req.params.provider }),
      status: 204,
    },
  ];
}

export const integrationsRoutes: RouteEntry[] = [
  // /integrations/config/:provider (deprecated for /integration-configs/:provider) first: `config` would
  // otherwise match :integrationId.
  ...['/integration-configs/:provider', '/integrations/config/:provider'].flatMap(providerConfigRoutes),
  {
    method: 'get',
    path: '/integrations',
    operation: `query Integrations($provider: String) { integrations(provider: $provider) { ${INTEGRATION_FIELDS} } }`,
    variables: (req) => ({ provider: (req.query.provider as string | undefined) ?? null }),
    respond: (data) => ({ items: data.integrations.map(presentIntegration) }),
  },
  {
    method: 'post',
    path: '/integrations',
    operation: `mutation CreateIntegration($input: CreateIntegrationInput!, $dryRun: Boolean) {
      createIntegration(input: $input, dryRun: $dryRun) {
        pushToken
        integration { ${INTEGRATION_FIELDS} }
        dryRun { provider name configOk reachable { ok latencyMs message } }
      }
    }`,
    variables: (req) => ({ dryRun: dryRun(req.query), input: req.body }),
    status: (req) => (dryRun(req.query) ? 200 : 201),
    respond: (data) => {
      const c = data.createIntegration;
      if (c.dryRun) return presentDryRun(c.dryRun);
      return { ...presentIntegration(c.integration), push_token: c.pushToken };
    },
  },
  {
    method: 'get',
    path: '/integrations/:integrationId',
    operation: `query Integration($id: ID!) { integration(id: $id) { ${INTEGRATION_FIELDS} } }`,
    variables: (req) => ({ id: req.params.integrationId }),
    respond: (data) => presentIntegration(data.integration),
  },
  {
    method: 'patch',
    path: '/integrations/:integrationId',
    operation: `mutation UpdateIntegration($id: ID!, $input: UpdateIntegrationInput!) { updateIntegration(id: $id, input: $input) { ${INTEGRATION_FIELDS} } }`,
    variables: (req) => ({ id: req.params.integrationId, input: req.body }),
    respond: (data) => presentIntegration(data.updateIntegration),
  },
  {
    method: 'delete',
    path: '/integrations/:integrationId',
    operation: 'mutation DeleteIntegration($id: ID!) { deleteIntegration(id: $id) }',
    variables: (req) => ({ id: req.params.integrationId }),
    status: 204,
  },
  {
    method: 'post',
    path: '/integrations/:integrationId/rotate-token',
    operation: `mutation RotateIntegrationPushToken($id: ID!) { rotateIntegrationPushToken(id: $id) { pushToken integration { ${INTEGRATION_FIELDS} } } }`,
    variables: (req) => ({ id: req.params.integrationId }),
    respond: (data) => ({
      ...presentIntegration(data.rotateIntegrationPushToken.integration),
      push_token: data.rotateIntegrationPushToken.pushToken,
    }),
  },
  {
    method: 'get',
    path: '/integrations/:integrationId/health',
    operation: `query IntegrationHealth($id: ID!, $refresh: Boolean, $history: Int) {
      integrationHealth(id: $id, refresh: $refresh) { ${HEALTH_FIELDS} history(limit: $history) { ${HEALTH_FIELDS} } }
    }`,
    variables: (req) => ({
      id: req.params.integrationId,
      refresh: req.query.refresh === true || req.query.refresh === 'true',
      history: Number(req.query.history ?? 10),
    }),
    respond: (data, req) => ({ integration_id: req.params.integrationId, ...presentHealth(data.integrationHealth) }),
  },
  {
    method: 'post',
    path: '/integrations/:provider/ingest',
    operation: `mutation IngestIntegration($provider: String!) {
      ingestIntegration(provider: $provider) { provider hint events alertsOpened alertsResolved integrations { integrationId name ok events alertsOpened alertsResolved error summary } }
    }`,
    variables: (req) => ({ provider: req.params.provider }),
    respond: (data) => presentIngest(data.ingestIntegration),
  },
  {
    method: 'post',
    path: '/integrations/:integrationId/push',
    auth: integrationPushAuth,
    // The provider maps the body (Alertmanager's payload, any JSON for `webhook`) with field-named 422s.
    validatesOwnInput: true,
    handler: async (req, res) => {
      const answer = await receivePush(req.ctx, req.body);
      res.status(answer.status).json(answer.body);
    },
  },
];
