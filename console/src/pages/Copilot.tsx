/**
 * The copilot: the caller's own conversations (most recent first) and a chat whose reply streams in
 * over the `assistantChat` subscription (graphql-ws) as it is produced; the finished turn is stored
 * by the server (the same turn `copilotChat` / `POST /copilot/chat` returns whole). Actions a reply
 * proposes are listed; they run only when a person approves them on the alert.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useClient, useQuery, type CombinedError } from 'urql';
import { ErrorView } from '../components/ErrorView';
import { Card, Page } from '../components/Page';
import { Field } from '../components/Field';
import { when } from '../lib/format';
import { graphql, readFragment, type FragmentOf, type ResultOf } from '../lib/graphql';

/** One stored turn of a conversation. */
const MessageFields = graphql(`
  fragment ConsoleCopilotMessage on AssistantMessage {
    id
    role
    content
    createdAt
    provider
    citations
    author {
      email
    }
  }
`);

const ConversationsQuery = graphql(`
  query ConsoleCopilotConversations {
    copilotConversations(limit: 50) {
      id
      title
      updatedAt
    }
  }
`);
const ConversationQuery = graphql(
  `
    query ConsoleCopilotConversation($id: ID!) {
      copilotConversation(id: $id) {
        id
        title
        updatedAt
        messages(limit: 200) {
          id
          ...ConsoleCopilotMessage
        }
      }
    }
  `,
  [MessageFields],
);
const ChatSubscription = graphql(`
  subscription ConsoleCopilotChat($input: AssistantChatInput!) {
    assistantChat(input: $input) {
      delta
      done
      result {
        conversation {
          id
        }
        citations
        actions {
          id
          tool
          rationale
          risk
        }
      }
    }
  }
`);

type ProposedAction = NonNullable<ResultOf<typeof ChatSubscription>['assistantChat']['result']>['actions'][number];

function Message({ message }: { message: FragmentOf<typeof MessageFields> }) {
  const m = readFragment(MessageFields, message);
  return (
    <li className={m.role === 'USER' ? 'chat-user' : 'chat-assistant'}>
      <small className="hint">
        {m.role === 'USER' ? (m.author?.email ?? 'you') : `assistant${m.provider ? ` (${m.provider})` : ''}`} ·{' '}
        {when(m.createdAt)}
      </small>
      <p>{m.content}</p>
      {m.citations.length > 0 && (
        <small className="hint">based on {m.citations.map((c) => c.slice(0, 8)).join(', ')}</small>
      )}
    </li>
  );
}

export function Copilot() {
  const client = useClient();
  const [list, refetchList] = useQuery({ query: ConversationsQuery, requestPolicy: 'cache-and-network' });
  const [current, setCurrent] = useState<string | null>(null);
  const [conv, refetchConv] = useQuery({
    query: ConversationQuery,
    variables: { id: current ?? '' },
    pause: !current,
    requestPolicy: 'cache-and-network',
  });
  const [text, setText] = useState('');
  const [pending, setPending] = useState<{ question: string; reply: string } | null>(null);
  const [lastActions, setLastActions] = useState<readonly ProposedAction[]>([]);
  const [error, setError] = useState<CombinedError | Error | null>(null);
  const stop = useRef<(() => void) | null>(null);
  useEffect(() => () => stop.current?.(), []);

  function send(e: FormEvent) {
    e.preventDefault();
    const message = text.trim();
    if (!message || pending) return;
    setError(null);
    setText('');
    setLastActions([]);
    setPending({ question: message, reply: '' });
    const input = current ? { conversationId: current, message } : { message };
    const { unsubscribe } = client.subscription(ChatSubscription, { input }).subscribe((r) => {
      if (r.error) {
        setError(r.error);
        setPending(null);
        return;
      }
      const chunk = r.data?.assistantChat;
      if (!chunk) return;
      if (chunk.delta) setPending((p) => (p ? { ...p, reply: p.reply + chunk.delta } : p));
      if (chunk.done) {
        const id = chunk.result?.conversation.id ?? current;
        setLastActions(chunk.result?.actions ?? []);
        setCurrent(id);
        // The stored turn replaces the streamed one once the conversation is fetched again.
        void client
          .query(ConversationQuery, { id: id! }, { requestPolicy: 'network-only' })
          .toPromise()
          .then(() => {
            setPending(null);
            refetchList({ requestPolicy: 'network-only' });
            refetchConv({ requestPolicy: 'network-only' });
          });
      }
    });
    stop.current = unsubscribe;
  }

  const messages = current ? (conv.data?.copilotConversation.messages ?? []) : [];

  return (
    <Page title="Copilot" error={list.error}>
      <div className="copilot">
        <Card title="Conversations">
          <button
            type="button"
            className="plain"
            onClick={() => {
              setCurrent(null);
              setLastActions([]);
            }}
          >
            New conversation
          </button>
          <ul className="conversations">
            {list.data?.copilotConversations.map((c) => (
              <li key={c.id}>
                <button
                  type="button"
                  className="link"
                  aria-current={c.id === current ? 'true' : undefined}
                  onClick={() => setCurrent(c.id)}
                >
                  {c.title}
                </button>
                <small className="hint"> {when(c.updatedAt)}</small>
              </li>
            ))}
            {list.data && list.data.copilotConversations.length === 0 && <li className="hint">None yet.</li>}
          </ul>
        </Card>
        <Card title={current ? (conv.data?.copilotConversation.title ?? 'Conversation') : 'New conversation'}>
          <ErrorView error={conv.error} />
          <ol className="chat" aria-label="Chat messages" aria-live="polite">
            {messages.map((m) => (
              <Message key={m.id} message={m} />
            ))}
            {pending && (
              <>
                <li className="chat-user">
                  <p>{pending.question}</p>
                </li>
                <li className="chat-assistant" aria-busy="true">
                  <small className="hint">assistant · answering…</small>
                  <p>{pending.reply || '…'}</p>
                </li>
              </>
            )}
          </ol>
          {lastActions.length > 0 && (
            <div>
              <h3>Proposed actions</h3>
              <ul>
                {lastActions.map((a) => (
                  <li key={a.id}>
                    {a.tool.toLowerCase().replace(/_/g, ' ')} ({a.risk.toLowerCase()} risk): {a.rationale} — approve or
                    reject it on the alert.
                  </li>
                ))}
              </ul>
            </div>
          )}
          <form className="chat-form" onSubmit={send} aria-label="Ask the copilot">
            <Field label="Message">
              <textarea
                rows={3}
                value={text}
                onChange={(e) => setText(e.target.value)}
                placeholder="What is failing right now?"
              />
            </Field>
            <button type="submit" className="primary" disabled={!!pending || !text.trim()}>
              Send
            </button>
          </form>
          <ErrorView error={error} />
        </Card>
      </div>
    </Page>
  );
}
