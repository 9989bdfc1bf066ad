// Chat: a button with an unread badge and a panel with the conversation and a composer. Renders the store;
// sends through the controller. Knows nothing of Konva.
import { type SubmitEvent, type ReactElement, useEffect, useRef, useState } from 'react';
import { selfId } from '../store/selectors';
import { cssColor, useAppState, useController } from '../view/context';
import { Icon } from './icons';

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

export function ChatButton(): ReactElement {
  const { store } = useController();
  const unread = useAppState((s) => s.unread);
  const open = useAppState((s) => s.panels.has('chat'));
  return (
    <button
      type="button"
      className={`chat-fab${open ? ' active' : ''}`}
      aria-label={unread > 0 ? `Chat, ${unread} unread` : 'Chat'}
      aria-pressed={open}
      data-tip="Chat · C"
      data-testid="chat-toggle"
      onClick={() => {
        store.dispatch({ type: 'panel', panel: 'chat', open: !open });
      }}
    >
      <Icon name="chat" size={20} />
      {unread > 0 && <span className="badge-count">{unread > 99 ? '99+' : unread}</span>}
    </button>
  );
}

/** The conversation, kept scrolled to the newest message. */
function MessageList(): ReactElement {
  const chat = useAppState((s) => s.chat);
  const me = useAppState((s) => selfId(s.status));
  const listRef = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const el = listRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [chat.length]);
  return (
    <ol className="messages" ref={listRef} aria-live="polite">
      {chat.length === 0 && <li className="muted empty">No messages yet. Say hi!</li>}
      {chat.map((m) => (
        <li
          key={m.seq}
          className={`message${m.peer === me ? ' mine' : ''}`}
          data-testid="chat-message"
        >
          <div className="message-head">
            <span className="message-name" style={{ color: cssColor(m.color) }}>
              {m.peer === me ? 'You' : m.name}
            </span>
            <time className="muted">{timeFormat.format(m.at)}</time>
          </div>
          <div className="message-text">{m.text}</div>
        </li>
      ))}
    </ol>
  );
}

export function ChatPanel(): ReactElement {
  const controller = useController();
  const [draft, setDraft] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    inputRef.current?.focus();
  }, []);

  const send = (e: SubmitEvent): void => {
    e.preventDefault();
    const text = draft.trim();
    if (text === '') return;
    setDraft('');
    void controller.chat(text).then((ok) => {
      if (!ok) setDraft(text);
    });
  };

  return (
    <section className="panel chat" aria-label="Chat">
      <header className="popover-head">
        <h2>Chat</h2>
        <button
          type="button"
          className="icon-btn small"
          aria-label="Close chat"
          onClick={() => {
            controller.store.dispatch({ type: 'panel', panel: 'chat', open: false });
          }}
        >
          <Icon name="close" size={16} />
        </button>
      </header>
      <MessageList />
      <form className="composer" onSubmit={send}>
        <input
          ref={inputRef}
          value={draft}
          maxLength={1000}
          placeholder="Message everyone…"
          aria-label="Message"
          data-testid="chat-input"
          onChange={(e) => {
            setDraft(e.target.value);
          }}
        />
        <button
          type="submit"
          className="icon-btn primary"
          aria-label="Send"
          data-testid="chat-send"
          disabled={draft.trim() === ''}
        >
          <Icon name="send" />
        </button>
      </form>
    </section>
  );
}
