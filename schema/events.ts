/**
 * GraphQL types, queries, mutations and subscriptions of the events area.
 */
import { builder } from './builder.js';

void builder;
