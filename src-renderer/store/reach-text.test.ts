// What the UI says about reaching people: link recognition, the join stages, paths and the hosting listing.
import { describe, expect, it } from 'vitest';
import type { ReachStatus } from '../../shared/api';
import {
  joinAddress,
  joinStage,
  joinTarget,
  linkSummary,
  linkWithoutCode,
  listingText,
  pathBadge,
  pathLabel,
  recognizeLink,
  stageText,
  visibilityText,
} from './reach-text';

const DIR_LINK = 'ghostboard://join/127.0.0.1:7340/s-4f2k9q#7-orbit-lantern';
const TWO_DIRS = 'ghostboard://join/a.example:7340,[fd00::1]:7340/Sprint%20review#12-red-fox';
const DIRECT = 'ghostboard://direct/192.168.1.24:7350#7-orbit-lantern';

function summary(text: string): string | undefined {
  const r = recognizeLink(text);
  return r === undefined ? undefined : linkSummary(r);
}

describe('invite links on the join form', () => {
  it('says what a pasted link is: the session and how many directories, or the address', () => {
    expect(summary(DIR_LINK)).toBe('Invite link — session s-4f2k9q via 1 directory');
    expect(summary(`  ${TWO_DIRS}\n`)).toBe(
      'Invite link — session Sprint review via 2 directories',
    );
    expect(summary(DIRECT)).toBe('Invite link — straight to 192.168.1.24:7350');
  });

  it('carries the code of a full link, and asks for it when the link was kept without one', () => {
    expect(recognizeLink(DIR_LINK)?.code).toBe('7-orbit-lantern');
    const base = 'ghostboard://join/127.0.0.1:7340/s-4f2k9q';
    expect(recognizeLink(base)?.code).toBe('');
    expect(summary(base)).toBe('Invite link — session s-4f2k9q via 1 directory (enter the code)');
  });

  it('recognizes no address, no broken link and nothing else', () => {
    for (const t of [
      '',
      '192.168.1.24:7350',
      'ghostboard://join/127.0.0.1:7340',
      'ghostboard://join/nope/s-1#c',
      'ghostboard://direct/1.2.3.4:99999#c',
      'https://example.org/#code',
    ])
      expect(recognizeLink(t), t).toBeUndefined();
  });

  it('strips the code from a link (what may be remembered) and leaves addresses alone', () => {
    expect(linkWithoutCode(DIR_LINK)).toBe('ghostboard://join/127.0.0.1:7340/s-4f2k9q');
    expect(linkWithoutCode(DIRECT)).toBe('ghostboard://direct/192.168.1.24:7350');
    expect(linkWithoutCode('192.168.1.24:7350')).toBeUndefined();
  });

  it('puts a typed code back into a link kept without one, and sends everything else as typed', () => {
    const base = 'ghostboard://join/127.0.0.1:7340/s-4f2k9q';
    expect(joinAddress(base, ' 3-blue bird ')).toBe(`${base}#3-blue%20bird`);
    expect(recognizeLink(joinAddress(base, '3-blue-bird'))?.code).toBe('3-blue-bird');
    expect(joinAddress(base, '')).toBe(base);
    expect(joinAddress(DIR_LINK, 'other')).toBe(DIR_LINK);
    expect(joinAddress(' 10.0.0.2:7350 ', 'abc')).toBe('10.0.0.2:7350');
  });

  it('names the join target: the session, the direct host, or the address', () => {
    expect(joinTarget(DIR_LINK)).toBe('s-4f2k9q');
    expect(joinTarget(DIRECT)).toBe('192.168.1.24:7350');
    expect(joinTarget('[fd00::7]:9')).toBe('[fd00::7]:9');
  });
});

describe('join stages and paths', () => {
  it('says where a join is, defaulting to connecting when the core names no stage', () => {
    const lookUp = { phase: 'connecting', address: 's-1', stage: 'looking-up' } as const;
    expect(joinStage(lookUp)).toBe('looking-up');
    const relaying = { phase: 'connecting', address: 's-1', stage: 'relaying' } as const;
    expect(joinStage(relaying)).toBe('relaying');
    expect(stageText(relaying)).toMatch(/relay/);
    expect(stageText(lookUp)).toBe('Looking up the session on the directory…');
    const plain = { phase: 'connecting', address: '10.0.0.2:7350' } as const;
    expect(joinStage(plain)).toBe('connecting');
    expect(stageText(plain)).toBe('Connecting to 10.0.0.2:7350…');
    expect(joinStage({ phase: 'idle' })).toBeNull();
    expect(stageText({ phase: 'idle' })).toBeNull();
  });

  it('labels each path for the top bar and the bandwidth panel', () => {
    expect(['direct', 'lan', 'relayed'].map((p) => pathLabel(p as never))).toEqual([
      'Direct',
      'Same network',
      'Relayed',
    ]);
    expect(pathBadge('lan')).toBe('LAN');
    expect(pathBadge('direct')).toBe('Direct');
    expect(pathBadge('relayed')).toBe('Relayed');
  });
});

describe('how a hosted session can be found', () => {
  const reach = (more: Partial<ReachStatus>): ReachStatus => ({
    directories: 2,
    listedOn: 1,
    publicAddress: null,
    listedAs: null,
    ...more,
  });

  it('counts the directories that list it, and says when none has yet', () => {
    expect(listingText(reach({}))).toBe('Listed on 1 of 2 directories');
    expect(listingText(reach({ directories: 1 }))).toBe('Listed on 1 of 1 directory');
    expect(listingText(reach({ listedOn: 0, directories: 1 }))).toBe(
      'Not listed yet: registering with 1 directory…',
    );
  });

  it('says who can find it: only link holders, or everyone under its public name', () => {
    expect(visibilityText(reach({}))).toBe('Unlisted: only people with the link can find it');
    expect(visibilityText(reach({ listedAs: 'Design review' }))).toBe(
      'Listed publicly as “Design review”',
    );
  });
});
