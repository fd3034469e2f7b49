/**
 * GraphQL types, queries, mutations and subscriptions of the rules area.
 */
import { builder } from './builder.js';

void builder;
