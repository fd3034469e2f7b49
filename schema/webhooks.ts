/**
 * GraphQL types, queries, mutations and subscriptions of the webhooks area.
 */
import { builder } from './builder.js';

void builder;
