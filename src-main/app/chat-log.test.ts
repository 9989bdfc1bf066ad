import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../shared/api';
import { ChatLog } from './chat-log';

const message = (seq: number): ChatMessage => ({
  seq,
  peer: 1,
  name: 'Ana',
  color: 0x3366cc,
  text: `line ${seq}`,
  at: 0,
});

describe('ChatLog', () => {
  it('keeps the last 500 messages, and every message of a session gets a seq of its own', () => {
    const log = new ChatLog();
    const seqs = new Set<number>();
    for (let i = 0; i < 600; i++) {
      const seq = log.nextSeq();
      seqs.add(seq);
      log.add(message(seq));
    }
    expect(seqs.size).toBe(600);
    expect(log.all()).toHaveLength(500);
    expect(log.all()[0]?.seq).toBe(101);
    expect(log.all().at(-1)?.seq).toBe(600);
  });

  it('starts again at 1 for a new session', () => {
    const log = new ChatLog();
    log.add(message(log.nextSeq()));
    log.clear();
    expect(log.all()).toHaveLength(0);
    expect(log.nextSeq()).toBe(1);
  });
});
