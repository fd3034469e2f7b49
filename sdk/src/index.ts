export {
  createRestClient,
  type RestClient,
  type RestOptions,
  type paths,
  type components,
  type operations,
} from './rest.js';
export {
  createGraphQLClient,
  graphql,
  GraphQLRequestError,
  type GraphQLClient,
  type GraphQLOptions,
  type ResultOf,
  type VariablesOf,
} from './graphql.js';
export { OpenAlerts, AlertById, AlertChanges, EventsAdded } from './documents.js';
export {
  verifyWebhook,
  verifyStandardWebhook,
  verifyServiceSignature,
  WebhookVerificationError,
  type VerifyOptions,
  type VerifiedWith,
  type WebhookHeaders,
} from './webhooks.js';
