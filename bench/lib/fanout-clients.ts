/**
 * Child process of bench:fanout: opens FANOUT_CONNECTIONS graphql-ws connections (the
 * graphql-transport-ws protocol spoken directly over `ws`, so the client side stays cheap), spread over
 * FANOUT_URLS and FANOUT_TOKENS, each subscribed to `eventAdded { id }`. Reports over IPC:
 * `{ready: n}` once every connection is acknowledged and its subscribe sent; on `{collect: true}` it
 * answers with every receipt (event id → receipt times, ms since the epoch) seen since the last collect.
 */
import WebSocket from 'ws';

const urls = process.env.FANOUT_URLS!.split(',');
const tokens = process.env.FANOUT_TOKENS!.split(',');
const count = Number(process.env.FANOUT_CONNECTIONS);
const offset = Number(process.env.FANOUT_OFFSET ?? 0);
const SUBSCRIBE = JSON.stringify({
  id: '1',
  type: 'subscribe',
  payload: { query: 'subscription { eventAdded { id } }' },
});

let receipts = new Map<string, number[]>();
let closed = 0;

function open(i: number): Promise<void> {
  const n = offset + i;
  const url = urls[n % urls.length].replace(/^http/, 'ws') + '/graphql';
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, 'graphql-transport-ws', { perMessageDeflate: false });
    ws.on('open', () =>
      ws.send(
        JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${tokens[n % tokens.length]}` } }),
      ),
    );
    ws.on('message', (data) => {
      const at = Date.now();
      const text = data.toString();
      if (text.startsWith('{"type":"connection_ack"')) {
        ws.send(SUBSCRIBE);
        resolve();
        return;
      }
      const msg = JSON.parse(text) as { type: string; payload?: { data?: { eventAdded?: { id: string } } } };
      const id = msg.payload?.data?.eventAdded?.id;
      if (msg.type === 'next' && id) {
        let list = receipts.get(id);
        if (!list) receipts.set(id, (list = []));
        list.push(at);
      } else if (msg.type === 'ping') ws.send('{"type":"pong"}');
    });
    ws.on('close', () => {
      closed++;
      reject(new Error('closed before acknowledged'));
    });
    ws.on('error', () => undefined);
  });
}

// Open in waves, so the server sees a ramp rather than one SYN flood.
const WAVE = 200;
for (let i = 0; i < count; i += WAVE) {
  await Promise.all(Array.from({ length: Math.min(WAVE, count - i) }, (_, k) => open(i + k)));
}
process.send!({ ready: count });
process.on('message', (msg: { collect?: boolean }) => {
  if (!msg.collect) return;
  const out = Object.fromEntries(receipts);
  receipts = new Map();
  process.send!({ receipts: out, closed });
});
