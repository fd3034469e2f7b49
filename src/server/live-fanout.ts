/**
 * Fan-out of live subscriptions on one API node. Every subscription of the tenant-topic kind
 * (`eventAdded`, `alertChanged`, … — SHARED_SUBSCRIPTIONS) whose caller sees the same thing (same tenant,
 * role, kind of user and credential, and for most fields the same user) and whose document and variables
 * are the same joins one group. The group runs the operation once (one pub/sub listener, one filter evaluation, one execution
 * per message), serialises the result once, and writes the graphql-transport-ws `next` frame straight to
 * each member's socket. Per subscriber and message what is left is one `socket.send` of a prepared string.
 *
 * graphql-ws still owns the connection and the operation: it gets, for each subscriber, an iterable
 * that yields nothing and ends when the group ends (→ `complete`) or fails (→ `error`); when the
 * subscriber completes or the socket closes, graphql-ws returns that iterable, which leaves the group,
 * and the last member to leave ends the group's operation.
 *
 * A subscriber that does not read (its socket's send buffer above MAX_BUFFERED_BYTES) is closed with
 * 1013 (try again later) rather than buffered without bound.
 */
import {
  getOperationAST,
  Kind,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { WebSocket } from 'ws';
import type { Principal } from '../principal.js';

/**
 * Root fields whose stream is the tenant's pub/sub topic, filtered by arguments and the caller only, and
 * who may share a group for each: `user` (same tenant, user, role, kind of user and credential: the stream
 * itself may depend on who asks, as `tokenChanged` does) or `tenant` (same tenant, role, kind of user and
 * credential: `eventAdded`'s stream is the tenant's, and an Event's own fields are stored columns). A
 * `tenant` field is shared tenant-wide only when the document selects leaf fields of it (no `device`,
 * no `alerts`): objects reached through it may depend on the user, so such a document is shared per user.
 */
export const SHARED_SUBSCRIPTIONS: ReadonlyMap<string, 'tenant' | 'user'> = new Map([
  ['eventAdded', 'tenant'],
  ['alertChanged', 'user'],
  ['deliveryChanged', 'user'],
  ['proposalChanged', 'user'],
  ['deviceChanged', 'user'],
  ['tokenChanged', 'user'],
  ['integrationHealthChanged', 'user'],
  ['gpuHealthChanged', 'user'],
]);

/** Send buffer past which a subscriber counts as not reading. */
export const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

type Upstream = AsyncIterable<ExecutionResult> | ExecutionResult;

interface Member {
  socket: WebSocket;
  /** The graphql-ws prefix of this subscriber's frames: `{"id":"<id>","type":"next","payload":`. */
  prefix: string;
  end(err?: unknown): void;
}

interface Group {
  members: Set<Member>;
  /** The operation's result, once started (an iterable for a live stream). */
  upstream: Promise<Upstream>;
  iterator?: AsyncIterator<ExecutionResult>;
}

/** What one subscriber brings: its socket, graphql-ws id and how to start the operation if it leads. */
export interface FanoutJoin {
  key: string;
  socket: WebSocket;
  id: string;
  start(): Promise<Upstream>;
}

/** The subscription's root field when it has exactly one (and no fragment at the root), else null. */
function soleRootField(document: DocumentNode, operationName: string | null | undefined): FieldNode | null {
  const op = getOperationAST(document, operationName);
  if (op?.operation !== 'subscription' || op.selectionSet.selections.length !== 1) return null;
  const [only] = op.selectionSet.selections;
  return only.kind === Kind.FIELD ? only : null;
}

/** True when every field selected under `set` (through fragments too) is a leaf: has no selection of its own. */
function selectsLeavesOnly(document: DocumentNode, set: SelectionSetNode | undefined): boolean {
  if (!set) return true;
  return set.selections.every((sel) => {
    if (sel.kind === Kind.FIELD) return !sel.selectionSet;
    if (sel.kind === Kind.INLINE_FRAGMENT) return selectsLeavesOnly(document, sel.selectionSet);
    const fragment = document.definitions.find(
      (d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === sel.name.value,
    );
    return !!fragment && selectsLeavesOnly(document, fragment.selectionSet); // validated: no fragment cycles
  });
}

/** The group key of a caller and a validated operation; null when this operation must run on its own. */
export function fanoutKey(
  principal: Principal | null,
  document: DocumentNode,
  query: string,
  operationName: string | null | undefined,
  variables: unknown,
): string | null {
  const root = soleRootField(document, operationName);
  const sharedBy = root ? SHARED_SUBSCRIPTIONS.get(root.name.value) : undefined;
  if (!principal || !root || !sharedBy) return null;
  const perUser = sharedBy === 'user' || !selectsLeavesOnly(document, root.selectionSet);
  const who = [
    principal.tenantId,
    perUser ? principal.userId : null,
    principal.role,
    principal.userKind,
    principal.credential.kind,
  ];
  return JSON.stringify([who, query, operationName ?? null, variables ?? null]);
}

function isStream(up: Upstream): up is AsyncIterable<ExecutionResult> {
  return typeof (up as Partial<AsyncIterable<ExecutionResult>>)[Symbol.asyncIterator] === 'function';
}

/** graphql-ws's `next` payload: the result with its errors in their JSON form. */
function payloadJson(result: ExecutionResult): string {
  const { errors, ...rest } = result;
  return JSON.stringify(errors ? { ...rest, errors: errors.map((e) => e.toJSON()) } : rest);
}

export interface Fanout {
  /** Joins (or starts) the group of `join.key`; resolves with what graphql-ws iterates for this subscriber. */
  join(join: FanoutJoin): Promise<Upstream>;
  /** Groups and members now (metrics, tests). */
  size(): { groups: number; members: number };
}

export function createFanout(
  onSlowConsumer: (socket: WebSocket) => void = (s) => s.close(1013, 'Subscriber not reading'),
): Fanout {
  const groups = new Map<string, Group>();

  function deliver(group: Group, result: ExecutionResult): void {
    const json = payloadJson(result);
    const frames = new Map<string, string>(); // most clients use the same few ids: build each frame once
    for (const m of group.members) {
      const { socket } = m;
      if (socket.readyState !== socket.OPEN) continue;
      if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
        onSlowConsumer(socket);
        continue;
      }
      let frame = frames.get(m.prefix);
      if (frame === undefined) frames.set(m.prefix, (frame = m.prefix + json + '}'));
      socket.send(frame);
    }
  }

  async function pump(key: string, group: Group, stream: AsyncIterable<ExecutionResult>): Promise<void> {
    const iterator = (group.iterator = stream[Symbol.asyncIterator]());
    let failure: unknown;
    try {
      for (;;) {
        const step = await iterator.next();
        if (step.done) break;
        deliver(group, step.value);
      }
    } catch (err) {
      failure = err;
    } finally {
      if (groups.get(key) === group) groups.delete(key);
      for (const m of group.members) m.end(failure);
      group.members.clear();
    }
  }

  function leave(key: string, group: Group, member: Member): void {
    if (!group.members.delete(member) || group.members.size) return;
    if (groups.get(key) === group) groups.delete(key);
    void group.iterator?.return?.();
  }

  return {
    async join({ key, socket, id, start }) {
      let group = groups.get(key);
      if (!group) {
        const created: Group = { members: new Set(), upstream: start() };
        groups.set(key, (group = created));
        created.upstream.then(
          (up) => {
            if (!isStream(up)) {
              if (groups.get(key) === created) groups.delete(key); // a single answer (an error): not shared
            } else if (created.members.size) void pump(key, created, up);
            else void up[Symbol.asyncIterator]().return?.(); // everyone left while it started
          },
          () => groups.get(key) === created && groups.delete(key),
        );
      }
      const joined = group;
      let settle!: (r: IteratorResult<ExecutionResult>) => void;
      let fail!: (err: unknown) => void;
      const ended = new Promise<IteratorResult<ExecutionResult>>(
        (resolve, reject) => ((settle = resolve), (fail = reject)),
      );
      ended.catch(() => undefined); // a failure the subscriber has not asked for yet is not unhandled: next() still rejects with it
      const member: Member = {
        socket,
        prefix: `{"id":${JSON.stringify(id)},"type":"next","payload":`,
        end: (err) => (err === undefined ? settle({ done: true, value: undefined }) : fail(err)),
      };
      joined.members.add(member); // before the operation has started, so the group knows it is wanted
      let up: Upstream;
      try {
        up = await joined.upstream;
      } catch (err) {
        leave(key, joined, member);
        throw err;
      }
      if (!isStream(up)) {
        leave(key, joined, member);
        return up; // each subscriber gets the same single answer
      }
      const done = { done: true, value: undefined } as const;
      return {
        next: () => ended,
        return: async () => {
          leave(key, joined, member);
          settle(done);
          return done;
        },
        throw: async (err: unknown) => {
          leave(key, joined, member);
          throw err;
        },
        [Symbol.asyncIterator]() {
          return this;
        },
      } as AsyncGenerator<ExecutionResult>;
    },
    size() {
      let members = 0;
      for (const g of groups.values()) members += g.members.size;
      return { groups: groups.size, members };
    },
  };
}
