/**
 * The REST shape of the release this server runs (GraphQL `serverInfo`).
 */
export interface ServerInfoData {
  version: string;
  schemaHash: string;
  features: string[];
}

/** `{version, schema_hash, features}`. */
export function presentServerVersion(info: ServerInfoData): {
  version: string;
  schema_hash: string;
  features: string[];
} {
  return { version: info.version, schema_hash: info.schemaHash, features: info.features };
}
