// What a host shares to let others join: the invite link first (with how the session can be found), then
// addresses with the port and the join code, each with a copy button, and (a session that takes mirrors) the
// command that adds a mirror, and once mirrors have joined, the session's hosts. Renders the store's 'hosting' status;
// knows nothing of Konva or the bridge.
import { type ReactElement, useState } from 'react';
import type { ReachStatus, SessionHost } from '../../shared/api';
import { listingText, visibilityText } from '../store/reach-text';
import { useAppState, useController } from '../view/context';
import { Icon } from './icons';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function CopyButton({ text, label }: { text: string; label: string }): ReactElement {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <button
      type="button"
      className="icon-btn small"
      aria-label={`Copy ${label}`}
      data-tip={
        state === 'copied'
          ? 'Copied'
          : state === 'failed'
            ? 'Select and copy by hand'
            : `Copy ${label}`
      }
      onClick={() => {
        void copyText(text).then((ok) => {
          setState(ok ? 'copied' : 'failed');
          setTimeout(() => {
            setState('idle');
          }, 1500);
        });
      }}
    >
      <Icon name={state === 'copied' ? 'check' : 'copy'} size={16} />
    </button>
  );
}

/** The primary action: one click puts the whole invitation (the code after '#') on the clipboard. */
function CopyLink({ link }: { link: string }): ReactElement {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <>
      <code className="share-link" data-testid="share-link" title={link}>
        {link}
      </code>
      <button
        type="button"
        className="btn primary wide"
        data-testid="copy-link"
        onClick={() => {
          void copyText(link).then((ok) => {
            setState(ok ? 'copied' : 'failed');
            setTimeout(() => {
              setState('idle');
            }, 1500);
          });
        }}
      >
        <Icon name={state === 'copied' ? 'check' : 'copy'} size={16} />
        {state === 'copied'
          ? 'Copied'
          : state === 'failed'
            ? 'Select the link above and copy it'
            : 'Copy invite link'}
      </button>
    </>
  );
}

/** How people can find the session: listed on how many directories, publicly or not, at which address. */
function ReachInfo({ reach }: { reach: ReachStatus | undefined }): ReactElement {
  if (reach === undefined)
    return (
      <p className="reach-info muted small" data-testid="share-reach">
        On this network only: the link works for people who can reach this machine.
      </p>
    );
  return (
    <div className="reach-info" data-testid="share-reach">
      <span className={`dot ${reach.listedOn > 0 ? 'good' : 'busy'}`} aria-hidden="true" />
      <div>
        <div data-testid="share-listing">{listingText(reach)}</div>
        <div className="muted small" data-testid="share-visibility">
          {visibilityText(reach)}
        </div>
        {reach.publicAddress !== null && (
          <div className="muted small">
            Public address <span className="mono">{reach.publicAddress}</span>
          </div>
        )}
      </div>
    </div>
  );
}

function Row({
  label,
  value,
  copyLabel,
  testId,
}: {
  label: string;
  value: string;
  copyLabel: string;
  testId: string;
}): ReactElement {
  return (
    <div className="share-row">
      <span className="share-label">{label}</span>
      <code className="share-value" data-testid={testId}>
        {value}
      </code>
      <CopyButton text={value} label={copyLabel} />
    </div>
  );
}

/**
 * Hosting a session that takes mirrors: "Add a mirror" reveals the command that starts one on another machine, to
 * copy, and what it is for.
 */
function AddMirror({ link }: { link: string }): ReactElement {
  const [open, setOpen] = useState(false);
  const command = `ghostboard host --mirror-of ${link}`;
  if (!open)
    return (
      <div className="share-foot">
        <button
          type="button"
          className="btn ghost small"
          data-testid="add-mirror"
          aria-expanded={false}
          onClick={() => {
            setOpen(true);
          }}
        >
          Add a mirror
        </button>
        <span className="muted small">Serve this session from another machine too.</span>
      </div>
    );
  return (
    <div className="share-mirror" data-testid="mirror-box">
      <div className="share-row">
        <span className="share-label">Add a mirror</span>
        <code className="share-value" data-testid="mirror-command" title={command}>
          {command}
        </code>
        <CopyButton text={command} label="mirror command" />
      </div>
      <p className="muted small" data-testid="mirror-help">
        Run on another machine to serve this session from there too; people join the nearest host
        and move to another if one stops.
      </p>
    </div>
  );
}

/** The session's hosts once it has more than one: this computer, and each other host with its round trip. */
function SessionHosts({ hosts }: { hosts: readonly SessionHost[] }): ReactElement {
  return (
    <div className="share-mirror" data-testid="session-hosts">
      <span className="share-label">Hosts of this session ({hosts.length})</span>
      <ul className="share-hosts">
        {hosts.map((h) => (
          <li key={h.address} data-testid="session-host">
            <code>{h.address}</code>
            <span className="muted small">
              {h.self ? 'this computer' : h.rttMs === null ? 'linking…' : `${h.rttMs} ms away`}
            </span>
          </li>
        ))}
      </ul>
      <p className="muted small">
        People join the host nearest to them, and move to another if theirs stops.
      </p>
    </div>
  );
}

export function SharePanel(): ReactElement | null {
  const controller = useController();
  const status = useAppState((s) => s.status);
  if (status.phase !== 'hosting') return null;
  const close = (): void => {
    controller.store.dispatch({ type: 'panel', panel: 'share', open: false });
  };
  const invite = [
    `Join my Ghostboard:`,
    ...(status.link === undefined ? [] : [`  link: ${status.link}`]),
    ...status.addresses.map((a) => `  address: ${a.includes(':') ? `[${a}]` : a}:${status.port}`),
    `  code: ${status.code}`,
  ].join('\n');
  return (
    <section className="popover share" aria-label="Invite people">
      <header className="popover-head">
        <h2>Invite people</h2>
        <button type="button" className="icon-btn small" aria-label="Close" onClick={close}>
          <Icon name="close" size={16} />
        </button>
      </header>
      {status.link !== undefined && <CopyLink link={status.link} />}
      <ReachInfo reach={status.reach} />
      <p className="muted small share-manual">
        {status.link === undefined ? 'They' : 'Or by hand: they'} pick “Join a board” and enter one
        address and the code.
      </p>
      {status.addresses.length === 0 && (
        <p className="callout warn">No network address found: only this machine can join.</p>
      )}
      {status.addresses.map((a) => {
        const full = `${a.includes(':') ? `[${a}]` : a}:${status.port}`;
        return (
          <Row
            key={a}
            label="Address"
            value={full}
            copyLabel={`address ${full}`}
            testId="share-address"
          />
        );
      })}
      <Row label="Port" value={String(status.port)} copyLabel="port" testId="share-port" />
      <Row label="Join code" value={status.code} copyLabel="join code" testId="share-code" />
      {status.codeLocked === true && (
        <p className="callout warn" role="alert" data-testid="code-locked">
          Too many wrong codes were tried, so this code is locked and nobody can join with it. Make
          a new code and send it to the people you invite.
        </p>
      )}
      <div className="share-foot">
        <button
          type="button"
          className="btn ghost small"
          data-testid="new-code"
          onClick={() => {
            void controller.invoke({ cmd: 'rotate-code' });
          }}
        >
          New code
        </button>
        <span className="muted small">The old code stops working; people already here stay.</span>
      </div>
      {status.hosts !== undefined && <SessionHosts hosts={status.hosts} />}
      {status.mirrorLink !== undefined && <AddMirror link={status.mirrorLink} />}
      <div className="share-foot">
        <CopyButton text={invite} label="the whole invitation" />
        <span className="muted small">Copy the whole invitation</span>
      </div>
    </section>
  );
}
