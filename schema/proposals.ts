/**
 * GraphQL types, queries, mutations and subscriptions of the proposals area.
 */
import { builder } from './builder.js';

void builder;
