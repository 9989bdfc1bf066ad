// Reading mDNS responses: an announcement as bonjour-service builds it (through dns-packet's encoder and
// decoder), goodbyes, malformed and hostile records, and a seeded fuzz that must never throw.
import dnsPacket from 'dns-packet';
import { Service } from 'bonjour-service';
import { describe, expect, it } from 'vitest';
import { Rng } from '../net/rng';
import { MAX_RECORDS, readResponse } from './records';
import { encodeTxt, SERVICE_NAME } from './txt';

const ID = '00112233aabbccdd';
const INSTANCE = `Ana board ${ID.slice(0, 8)}`;
const KEY = `${INSTANCE}._ghostboard._udp.local`.toLowerCase();

/** The records bonjour-service announces for a session, as a receiver decodes them. */
function announcement(ttl?: number): dnsPacket.Packet {
  const service = new Service(
    {
      name: INSTANCE,
      type: SERVICE_NAME,
      protocol: 'udp',
      port: 7350,
      host: 'ana.local',
      txt: encodeTxt({ name: 'Ana board', version: 4, id: ID, users: 2 }),
    },
    () => undefined,
    () => undefined,
  );
  const answers = service.records().map((r) => (ttl === undefined ? r : { ...r, ttl }));
  const bytes = dnsPacket.encode({ type: 'response', answers });
  return dnsPacket.decode(bytes);
}

describe('mDNS response reading', () => {
  it('reads an announcement: name, port, version, id, users; the sender first among addresses', () => {
    const p = announcement();
    const r = readResponse(p.answers, p.additionals, '192.168.77.10');
    expect(r.goodbyes).toEqual([]);
    expect(r.rejected).toEqual([]);
    expect(r.sightings).toHaveLength(1);
    const s = r.sightings[0];
    expect(s?.key).toBe(KEY);
    expect(s?.advert).toEqual({ name: 'Ana board', version: 4, id: ID, users: 2 });
    expect(s?.port).toBe(7350);
    expect(s?.addresses[0]).toBe('192.168.77.10');
    expect(s?.ttlS).toBe(120); // the SRV's TTL, the smallest
  });

  it('puts IPv4 before IPv6, drops link-local IPv6 and duplicates', () => {
    const answers = [
      { name: '_ghostboard._udp.local', type: 'PTR', ttl: 120, data: KEY },
      { name: KEY, type: 'SRV', ttl: 120, data: { port: 9, target: 'Ana.local' } },
      { name: KEY, type: 'TXT', ttl: 120, data: announcementTxt() },
      { name: 'ana.local', type: 'AAAA', ttl: 120, data: 'fd00::7' },
      { name: 'ana.local', type: 'AAAA', ttl: 120, data: 'fe80::1' },
      { name: 'ana.local', type: 'A', ttl: 120, data: '192.168.77.10' },
      { name: 'ana.local', type: 'A', ttl: 120, data: '10.1.2.3' },
      { name: 'other.local', type: 'A', ttl: 120, data: '10.9.9.9' },
    ];
    const r = readResponse(answers, [], '192.168.77.10');
    expect(r.sightings[0]?.addresses).toEqual(['192.168.77.10', '10.1.2.3', 'fd00::7']);
  });

  it('reads a goodbye (TTL 0) as one, not as a sighting', () => {
    const p = announcement(0);
    const r = readResponse(p.answers, p.additionals, '192.168.77.10');
    expect(r.goodbyes).toEqual([KEY]);
    expect(r.sightings).toEqual([]);
  });

  it('ignores other services and says why an instance of ours was refused', () => {
    const ptr = { name: '_ghostboard._udp.local', type: 'PTR', ttl: 120, data: KEY };
    const srv = { name: KEY, type: 'SRV', ttl: 120, data: { port: 7350, target: 'a.local' } };
    const txt = { name: KEY, type: 'TXT', ttl: 120, data: announcementTxt() };
    const other = { name: '_http._tcp.local', type: 'PTR', ttl: 120, data: 'x._http._tcp.local' };
    expect(readResponse([other], [], '1.2.3.4')).toEqual({
      sightings: [],
      goodbyes: [],
      rejected: [],
    });
    expect(readResponse([ptr, txt], [], '').rejected).toEqual(['no-srv']);
    expect(readResponse([ptr, srv], [], '').rejected).toEqual(['no-txt']);
    const bad = { ...srv, data: { port: 0, target: 'a.local' } };
    expect(readResponse([ptr, bad, txt], [], '').rejected).toEqual(['bad-srv']);
    const junkTxt = { ...txt, data: [Buffer.from('txtvers=1')] };
    expect(readResponse([ptr, srv, junkTxt], [], '').rejected).toEqual(['bad-version']);
    const notOurs = { ...ptr, data: 'x._ghostboard._udp.local.evil' };
    expect(readResponse([notOurs, srv, txt], [], '').sightings).toEqual([]);
  });

  it('reads at most MAX_RECORDS records of a packet', () => {
    const many = Array.from({ length: 5000 }, (_, i) => ({
      name: '_ghostboard._udp.local',
      type: 'PTR',
      ttl: 0,
      data: `s${i}._ghostboard._udp.local`,
    }));
    const r = readResponse(many, many, '');
    expect(r.goodbyes.length).toBe(MAX_RECORDS);
  });

  it('never throws on hostile shapes or random bytes decoded as DNS (seeded)', () => {
    const shapes: unknown[] = [
      null,
      42,
      'x',
      [null, 1, 'a', {}, { name: 1 }, { name: 'a', type: 'PTR', ttl: -1 }],
      [{ name: '_ghostboard._udp.local', type: 'PTR', ttl: 1, data: { toString: null } }],
      [{ name: '_ghostboard._udp.local', type: 'PTR', ttl: Infinity, data: KEY }],
      [{ name: KEY, type: 'SRV', ttl: 1, data: null }],
    ];
    for (const a of shapes)
      for (const b of shapes) expect(() => readResponse(a, b, '')).not.toThrow();
    const seed = 0x1a2;
    const rng = new Rng(seed);
    const base = Buffer.from(dnsPacket.encode(announcement()));
    for (let i = 0; i < 3000; i++) {
      const bytes = Buffer.from(base);
      for (let k = rng.int(8) + 1; k > 0; k--) bytes[rng.int(bytes.length)] = rng.int(256);
      let p: dnsPacket.Packet;
      try {
        p = dnsPacket.decode(bytes);
      } catch {
        continue; // multicast-dns drops what dns-packet cannot decode
      }
      expect(
        () => readResponse(p.answers, p.additionals, '10.0.0.1'),
        `seed ${seed}, case ${i}`,
      ).not.toThrow();
    }
  });
});

function announcementTxt(): Buffer[] {
  const txt = encodeTxt({ name: 'Ana board', version: 4, id: ID, users: 2 });
  return Object.entries(txt).map(([k, v]) => Buffer.from(`${k}=${v}`));
}
