/**
 * Builds the GraphQL schema from the area modules. Import order does not matter; each module
 * registers its own types and fields on the builder.
 */
import { builder } from './builder.js';
import './users.js';
import './auth.js';

export const schema = builder.toSchema({ sortSchema: true });
