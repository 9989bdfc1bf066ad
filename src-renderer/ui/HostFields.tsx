// The host form's choices: who can reach the session (this network only, or through the directory), the
// public listing name, and the UDP port. Pure presentation of the start form; knows nothing of the bridge.
import type { ReactElement } from 'react';
import type { Reach, StartFields } from '../store/start-form';
import { effectiveReach } from '../store/start-form';
import { Field } from './Field';

function Choice(p: {
  readonly value: Reach;
  readonly picked: boolean;
  readonly disabled: boolean;
  readonly title: string;
  readonly detail: string;
  readonly pick: (r: Reach) => void;
}): ReactElement {
  return (
    <label className={`choice${p.picked ? ' active' : ''}${p.disabled ? ' disabled' : ''}`}>
      <input
        type="radio"
        name="reach"
        value={p.value}
        checked={p.picked}
        disabled={p.disabled}
        data-testid={`reach-${p.value}`}
        onChange={() => {
          p.pick(p.value);
        }}
      />
      <span className="choice-text">
        <span className="choice-title">{p.title}</span>
        <span className="choice-detail">{p.detail}</span>
      </span>
    </label>
  );
}

export function HostFields(p: {
  readonly f: StartFields;
  readonly directories: number;
  readonly set: (k: 'port' | 'listName') => (v: string) => void;
  readonly setReach: (r: Reach) => void;
}): ReactElement {
  const reach = effectiveReach(p.f, p.directories);
  const none = p.directories === 0;
  return (
    <>
      <fieldset className="choices" aria-label="Who can join">
        <legend className="field-label">Who can join</legend>
        <Choice
          value="lan"
          picked={reach === 'lan'}
          disabled={false}
          title="On this network only"
          detail="By address or from the list of sessions on this network."
          pick={p.setReach}
        />
        <Choice
          value="directory"
          picked={reach === 'directory'}
          disabled={none}
          title="Through the directory"
          detail={
            none
              ? 'Reachable by link, through routers. Set a directory below first.'
              : 'Reachable by link, through routers (NATs).'
          }
          pick={p.setReach}
        />
      </fieldset>
      {reach === 'directory' && (
        <Field
          label="List publicly as"
          value={p.f.listName}
          onChange={p.set('listName')}
          placeholder="Leave empty to stay unlisted"
          hint="Empty: unlisted, found only through the invite link."
          max={48}
          testId="host-list-name"
        />
      )}
      <details className="advanced">
        <summary>Advanced</summary>
        <Field
          label="UDP port"
          value={p.f.port}
          onChange={p.set('port')}
          placeholder="7350"
          hint="Empty: 7350 if free, else any free port. 0: any free port."
        />
      </details>
    </>
  );
}
