import { describe, expect, it } from 'vitest';
import type { JoinLink, JoinLinkError } from './join-link';
import {
  formatJoinLink,
  formatMirrorLink,
  MAX_LINK_HOSTS,
  parseJoinLink,
  readJoinLink,
  readMirrorLink,
} from './join-link';

describe('join links', () => {
  it('carry directories, the session and the code (after #), and read back', () => {
    const links: JoinLink[] = [
      {
        kind: 'directory',
        directories: [
          { address: '203.0.113.1', port: 7340 },
          { address: '2001:db8::7', port: 7340 },
        ],
        session: 'Design review / Q4',
        code: '7-orbit-lantern',
      },
      { kind: 'direct', host: { address: '192.168.1.20', port: 7350 }, code: 'ABCDE-FGHJK' },
      { kind: 'direct', host: { address: 'fd00::2', port: 7350 }, code: '12 Apple Bread' },
      {
        kind: 'direct',
        host: { address: '203.0.113.5', port: 7350 },
        mirrors: [
          { address: '198.51.100.7', port: 7351 },
          { address: '2001:db8::9', port: 7350 },
        ],
        code: 'mirror-code',
      },
    ];
    for (const l of links) expect(parseJoinLink(formatJoinLink(l))).toEqual(l);
    expect(formatJoinLink(links[0] as JoinLink)).toBe(
      'ghostboard://join/203.0.113.1:7340,[2001:db8::7]:7340/Design%20review%20%2F%20Q4#7-orbit-lantern',
    );
  });

  it('keep the code out of everything before the #', () => {
    const text = formatJoinLink({
      kind: 'directory',
      directories: [{ address: 'dir.example.org', port: 7340 }],
      session: 's-7Q2MX4DRHK',
      code: 'secret-code',
    });
    expect(text.split('#')[0]).not.toContain('secret');
  });

  it('refuse anything malformed', () => {
    for (const bad of [
      '',
      'https://example.org/#x',
      'ghostboard://join/203.0.113.1:7340/name',
      'ghostboard://join/203.0.113.1:7340/name#',
      'ghostboard://join/name#code',
      'ghostboard://join/203.0.113.1:99999/name#code',
      'ghostboard://direct/203.0.113.1#code',
      'ghostboard://join/a:1,b:2,c:3,d:4,e:5/name#code',
      'ghostboard://join/203.0.113.1:7340/%E0%A4%A#code',
      `ghostboard://join/203.0.113.1:7340/${'x'.repeat(600)}#code`,
    ])
      expect(parseJoinLink(bad), bad).toBeUndefined();
  });

  it('name up to 8 hosts of one session (its mirrors), and say why a link is refused', () => {
    const hosts = Array.from({ length: 8 }, (_, i) => `10.0.0.${i + 1}:7350`);
    const eight = readJoinLink(`ghostboard://direct/${hosts.join(',')}#code`);
    expect(eight).toMatchObject({ kind: 'direct', host: { address: '10.0.0.1', port: 7350 } });
    if ('error' in eight || eight.kind !== 'direct') throw new Error('eight hosts are a link');
    expect(eight.mirrors?.length).toBe(7);
    // Today's one-host links read as they always did: no mirrors.
    expect(readJoinLink('ghostboard://direct/10.0.0.1:7350#code')).toEqual({
      kind: 'direct',
      host: { address: '10.0.0.1', port: 7350 },
      code: 'code',
    });
    // A host named twice counts once.
    expect(readJoinLink('ghostboard://direct/10.0.0.1:7350,10.0.0.1:7350#code')).toEqual({
      kind: 'direct',
      host: { address: '10.0.0.1', port: 7350 },
      code: 'code',
    });
    const cases: [string, JoinLinkError][] = [
      [`ghostboard://direct/${[...hosts, '10.0.0.9:7350'].join(',')}#code`, 'too-many-hosts'],
      ['ghostboard://direct/10.0.0.1:7350,#code', 'bad-address'],
      ['ghostboard://direct/10.0.0.1:7350,10.0.0.2#code', 'bad-address'],
      ['ghostboard://direct/10.0.0.1:7350,10.0.0.2:0#code', 'bad-address'],
      ['ghostboard://direct/10.0.0.1:7350#', 'no-code'],
      ['ghostboard://direct/10.0.0.1:7350#%E0%A4%A', 'no-code'],
      ['ghostboard://join/a:1,b:2,c:3,d:4,e:5/name#code', 'too-many-directories'],
      ['ghostboard://join/name#code', 'bad-session'],
      ['https://example.org/#x', 'not-a-link'],
      [`ghostboard://direct/${'1.2.3.4:5,'.repeat(60)}#code`, 'too-long'],
    ];
    for (const [text, error] of cases) expect(readJoinLink(text), text).toEqual({ error });
  });

  it('never throw on hostile text (seeded)', () => {
    const seed = 22;
    const next = mulberry32(seed);
    const int = (n: number): number => Math.floor(next() * n);
    const alphabet = 'ghostboard:/direct,join[]:.#%0123456789abcdef ';
    for (let i = 0; i < 3000; i++) {
      let t = next() < 0.5 ? 'ghostboard://direct/' : '';
      const n = int(80);
      for (let j = 0; j < n; j++) t += alphabet[int(alphabet.length)] ?? '';
      const r = readJoinLink(t);
      if (!('error' in r) && r.kind === 'direct')
        expect((r.mirrors?.length ?? 0) + 1, `seed ${seed}`).toBeLessThanOrEqual(MAX_LINK_HOSTS);
    }
  });
});

/** mulberry32: a small seeded PRNG (shared/ may not import the network's). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('mirror links', () => {
  it('carry the mirrors’ addresses, the join code and the mirror secret, and read back', () => {
    const link = {
      members: [
        { address: '10.0.1.2', port: 7351 },
        { address: 'fd00::3', port: 7351 },
      ],
      code: 'BLUE/FOX 7',
      secret: 'K7QX2M9TRDK7QX2M9TRDK7QX2M',
    };
    const text = formatMirrorLink(link);
    expect(text).toBe(
      'ghostboard://mirror/10.0.1.2:7351,[fd00::3]:7351#BLUE%2FFOX%207/K7QX2M9TRDK7QX2M9TRDK7QX2M',
    );
    expect(readMirrorLink(text)).toEqual(link);
    // Neither a join link nor a mirror link is taken for the other.
    expect(readJoinLink(text)).toEqual({ error: 'not-a-link' });
    expect(readMirrorLink('ghostboard://direct/10.0.1.2:7350#CODE')).toEqual({
      error: 'not-a-link',
    });
  });

  it('refuse a link without its secret, code or a good address', () => {
    expect(readMirrorLink('ghostboard://mirror/10.0.1.2:7351#CODE/')).toEqual({
      error: 'no-secret',
    });
    expect(readMirrorLink('ghostboard://mirror/10.0.1.2:7351#/SECRET')).toEqual({
      error: 'no-code',
    });
    expect(readMirrorLink('ghostboard://mirror/10.0.1.2#CODE/SECRET')).toEqual({
      error: 'bad-address',
    });
    expect(readMirrorLink('ghostboard://mirror/10.0.1.2:7351#CODE')).toEqual({
      error: 'not-a-link',
    });
    expect(readMirrorLink('x'.repeat(10_000))).toEqual({ error: 'too-long' });
  });

  it('carry a registered session’s directories, name and key, so a mirror registers as one more host', () => {
    const key = '00112233445566778899aabbccddeeff';
    const link = {
      members: [{ address: '10.0.1.2', port: 7351 }],
      code: '7-orbit-lantern',
      secret: 'K7QX2M9TRDK7QX2M9TRDK7QX2M',
      directory: {
        directories: [
          { address: '203.0.113.1', port: 7340 },
          { address: 'dir.example', port: 7340 },
        ],
        session: 'Design review/2',
        listed: true,
        key,
      },
    };
    const text = formatMirrorLink(link);
    expect(text).toBe(
      'ghostboard://mirror/10.0.1.2:7351/203.0.113.1:7340,dir.example:7340/Design%20review%2F2/listed' +
        `#7-orbit-lantern/K7QX2M9TRDK7QX2M9TRDK7QX2M/${key}`,
    );
    expect(readMirrorLink(text)).toEqual(link);
    const unlisted = { ...link, directory: { ...link.directory, listed: false } };
    expect(readMirrorLink(formatMirrorLink(unlisted))).toEqual(unlisted);
    // The key is the registration's proof: it rides after '#' with the secret, never in the path.
    expect(text.split('#')[0]).not.toContain(key);
  });

  it('refuse a directory part that is incomplete or malformed', () => {
    const key = 'ab'.repeat(16);
    const base = 'ghostboard://mirror/10.0.1.2:7351';
    const bad = [
      `${base}/203.0.113.1:7340/s#CODE/SECRET`, // no key
      `${base}#CODE/SECRET/${key}`, // a key without directories
      `${base}/203.0.113.1:7340#CODE/SECRET/${key}`, // no session
      `${base}/203.0.113.1:7340/s/public#CODE/SECRET/${key}`, // not "listed"
      `${base}/203.0.113.1:7340/s#CODE/SECRET/${key.slice(2)}`, // a short key
      `${base}/203.0.113.1:7340/s#CODE/SECRET/${'zz'.repeat(16)}`, // not hex
      `${base}/203.0.113.1/s#CODE/SECRET/${key}`, // a directory without a port
      `${base}/203.0.113.1:7340/%E0%A4%A#CODE/SECRET/${key}`, // a bad escape
      `${base}/${Array.from({ length: 5 }, (_, i) => `10.9.0.${i}:7340`).join(',')}/s#CODE/SECRET/${key}`,
    ];
    for (const text of bad) expect(readMirrorLink(text), text).toEqual({ error: 'bad-directory' });
    expect(readMirrorLink(`${base}#CODE/SECRET/${key}/more`)).toEqual({ error: 'not-a-link' });
  });
});
