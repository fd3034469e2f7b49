/**
 * GraphQL types, queries, mutations and subscriptions of the devices area.
 */
import { builder } from './builder.js';

void builder;
