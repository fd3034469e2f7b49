/**
 * What a mutation changed, for its audit row: the object type and id, never a payload wrapper
 * (`CreateIntegrationPayload` → the `Integration` inside it; `InboundWebhookWithSecret` → `InboundWebhook`),
 * so the audit log can name the object and link to it.
 */
import { getNamedType, isObjectType, type GraphQLNamedType, type GraphQLObjectType } from 'graphql';

/** Wrappers that carry one object plus a secret shown once. */
const SECRET_WRAPPER = /WithSecret$/;

/** `argumentId`: the id the mutation was called with; `lastResortId`: used when neither it nor the result has one. */
export function auditTargetOfResult(
  returnType: GraphQLNamedType | null,
  value: unknown,
  argumentId: unknown,
  lastResortId?: unknown,
): { targetType: string | null; targetId: string | null } {
  const fallbackId = argumentId != null ? String(argumentId) : lastResortId != null ? String(lastResortId) : null;
  if (!returnType || !isObjectType(returnType)) return { targetType: null, targetId: fallbackId };
  const fields = returnType.getFields();
  const record = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  if (fields.id) {
    const id = argumentId ?? record.id ?? lastResortId;
    return { targetType: returnType.name.replace(SECRET_WRAPPER, ''), targetId: id != null ? String(id) : null };
  }
  // A payload: the first object inside it that has an id names the target.
  for (const [name, field] of Object.entries(fields)) {
    const inner = getNamedType(field.type);
    const innerValue = record[name] as { id?: unknown } | null | undefined;
    if (isObjectType(inner) && (inner as GraphQLObjectType).getFields().id && innerValue && innerValue.id != null) {
      return { targetType: inner.name.replace(SECRET_WRAPPER, ''), targetId: String(argumentId ?? innerValue.id) };
    }
  }
  return { targetType: fallbackId ? returnType.name : null, targetId: fallbackId };
}
