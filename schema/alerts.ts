/**
 * GraphQL types, queries, mutations and subscriptions of the alerts area.
 */
import { builder } from './builder.js';

void builder;
