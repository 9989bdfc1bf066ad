// The join form's address (a host:port or an invite link, recognized as it is pasted) and code fields.
// Pure presentation of the start form; knows nothing of the store or the bridge.
import type { ReactElement } from 'react';
import { linkSummary, recognizeLink } from '../store/reach-text';
import type { StartFields } from '../store/start-form';
import { Field } from './Field';

function addressHint(address: string): { hint: string; tone?: 'ok' | 'warn' } {
  const r = recognizeLink(address);
  if (r !== undefined) return { hint: linkSummary(r), tone: 'ok' };
  if (address.trim().toLowerCase().startsWith('ghostboard:'))
    return { hint: 'This link looks incomplete: ask the host to copy it again.', tone: 'warn' };
  return { hint: 'host:port, [v6]:port, or a ghostboard:// invite link' };
}

export function JoinFields(p: {
  readonly f: StartFields;
  readonly setAddress: (v: string) => void;
  readonly setCode: (v: string) => void;
}): ReactElement {
  const { hint, tone } = addressHint(p.f.address);
  const link = recognizeLink(p.f.address);
  const codeFromLink = link !== undefined && link.code !== '' && p.f.code === link.code;
  return (
    <>
      <Field
        label="Host address or invite link"
        value={p.f.address}
        onChange={p.setAddress}
        placeholder="192.168.1.24:47810 or ghostboard://…"
        hint={hint}
        {...(tone === undefined ? {} : { hintTone: tone })}
        hintTestId="join-address-hint"
        mono
        max={600}
        testId="join-address"
      />
      <Field
        label="Join code"
        value={p.f.code}
        onChange={p.setCode}
        placeholder={link !== undefined && link.code !== '' ? 'from the link' : '7-orbit-lantern'}
        {...(codeFromLink
          ? { hint: 'From the link; change it only if the host sent a new one.' }
          : {})}
        mono
        testId="join-code"
      />
    </>
  );
}
