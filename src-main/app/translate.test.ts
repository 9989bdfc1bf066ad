import { describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api';
import type { Controls } from '../session/controls';
import type { ParticipantInfo } from '../session/session-events';
import { EventTranslator, leftText } from './translate';

/** Controls as the translator reads them: who is here, and no connections. */
function fakeControls(people: ParticipantInfo[]): Controls {
  return { role: 'host', participants: people, connections: () => [] } as unknown as Controls;
}

const ana: ParticipantInfo = {
  peer: 5,
  name: 'Ana',
  color: 0xe03131,
  role: 'editor',
  isHost: false,
};

describe('EventTranslator', () => {
  it('names the person who left, though the session forgot them before saying so', () => {
    const people = [ana];
    const events: ApiEvent[] = [];
    const t = new EventTranslator(
      fakeControls(people),
      (e) => events.push(e),
      () => 0,
    );
    t.translate({ type: 'joined', participant: ana });
    people.length = 0; // the session drops a participant, then emits 'left'
    t.translate({ type: 'left', peer: 5, reason: 'timeout', detail: 'nothing heard for 10000 ms' });
    const notices = events.flatMap((e) => (e.type === 'notice' ? [e.text] : []));
    expect(notices).toEqual(['Ana lost their connection']);
  });

  it('never shows a peer number for someone it never saw', () => {
    const events: ApiEvent[] = [];
    const t = new EventTranslator(
      fakeControls([]),
      (e) => events.push(e),
      () => 0,
    );
    t.translate({ type: 'left', peer: 9, reason: 'left', detail: '' });
    expect(events.flatMap((e) => (e.type === 'notice' ? [e.text] : []))).toEqual(['Someone left']);
  });

  it('says every leave reason in words', () => {
    expect(leftText('Bo', 'left')).toBe('Bo left');
    expect(leftText('Bo', 'kicked')).toBe('Bo was removed from the board');
    expect(leftText('Bo', 'error')).toBe('Bo was disconnected');
  });
});
