/**
 * Live data: a query that is fetched again whenever its subscription fires (alerts, tokens,
 * proposals, deliveries, devices), and a subscription that collects what arrives (the timeline).
 */
import { useEffect, useRef } from 'react';
import { useQuery, useSubscription, type AnyVariables, type TypedDocumentNode } from 'urql';

/** Runs `query` and re-runs it (network-only) each time `subscription` delivers a message. */
export function useLiveQuery<Data, Vars extends AnyVariables, SubData, SubVars extends AnyVariables>(opts: {
  query: TypedDocumentNode<Data, Vars>;
  variables: Vars;
  subscription: TypedDocumentNode<SubData, SubVars>;
  subscriptionVariables?: SubVars;
  pause?: boolean;
  /** Which messages call for a refetch (all of them unless given). */
  refetchWhen?: (message: SubData) => boolean;
}) {
  const [result, reexecute] = useQuery<Data, Vars>({
    query: opts.query,
    variables: opts.variables,
    pause: opts.pause,
    requestPolicy: 'cache-and-network',
  } as never);
  const [sub] = useSubscription<SubData, SubData, SubVars>({
    query: opts.subscription,
    variables: opts.subscriptionVariables,
    pause: opts.pause,
  } as never);
  const seen = useRef(sub.data);
  const refetchWhen = useRef(opts.refetchWhen);
  refetchWhen.current = opts.refetchWhen;
  useEffect(() => {
    if (sub.data && sub.data !== seen.current) {
      seen.current = sub.data;
      if (!refetchWhen.current || refetchWhen.current(sub.data)) reexecute({ requestPolicy: 'network-only' });
    }
  }, [sub.data, reexecute]);
  return { result, refetch: () => reexecute({ requestPolicy: 'network-only' }), live: sub };
}

/** Collects each item a subscription delivers, newest first (at most `limit`); starts over when the variables change. */
export function useLiveItems<SubData, SubVars extends AnyVariables, Item>(opts: {
  subscription: TypedDocumentNode<SubData, SubVars>;
  variables?: SubVars;
  pick: (data: SubData) => Item;
  limit?: number;
  pause?: boolean;
}) {
  const limit = opts.limit ?? 200;
  const pick = useRef(opts.pick);
  pick.current = opts.pick;
  const key = JSON.stringify(opts.variables ?? {});
  const currentKey = useRef(key);
  currentKey.current = key;
  const [sub] = useSubscription<SubData, Collected<Item>, SubVars>(
    { query: opts.subscription, variables: opts.variables, pause: opts.pause } as never,
    (prev: Collected<Item> | undefined, data: SubData) => {
      const kept = prev && prev.key === currentKey.current ? prev.items : [];
      return { key: currentKey.current, items: [pick.current(data), ...kept].slice(0, limit) };
    },
  );
  const items = sub.data && sub.data.key === key ? sub.data.items : NONE;
  return { items: items as Item[], error: sub.error };
}

interface Collected<Item> {
  key: string;
  items: Item[];
}
const NONE: never[] = [];
