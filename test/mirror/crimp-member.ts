// One mirror's CRIMP group on a real UDP socket, for the IP multicast namespace test: originals, NAKs and repairs
// go to an IP multicast group in one datagram (the group's sendToGroup hook), state blocks to each member by
// unicast; a real-time driver (setTimeout to the group's next timeout). JSON lines on stdout. Knows nothing of
// namespaces.
//
//   crimp-member ID ADDR0,ADDR1,... GROUP PORT COUNT
//     ID: this mirror's index in the address list; every address is a member's, on PORT. It originates COUNT
//     payloads 20 ms apart after a second, and ends once it has every member's COUNT or after 20 s.
//
// Events: {"ev":"listening"}, {"ev":"done", ...figures}.
import { createSocket } from 'node:dgram';
import { performance } from 'node:perf_hooks';
import { MirrorGroup } from '../../src-main/mirror/crimp';
import { Rng } from '../../src-main/net/rng';

const [idArg, addrArg, group, portArg, countArg] = process.argv.slice(2);
const self = Number(idArg);
const addresses = (addrArg ?? '').split(',');
const port = Number(portArg);
const count = Number(countArg);
const own = addresses[self];
if (own === undefined || group === undefined || !(port > 0) || !(count > 0)) {
  console.error('usage: crimp-member ID ADDR0,ADDR1,... GROUP PORT COUNT');
  process.exit(2);
}

const emit = (ev: string, fields: Record<string, unknown> = {}): void => {
  process.stdout.write(`${JSON.stringify({ ev, ...fields })}\n`);
};
const now = (): number => performance.now();
const members = addresses.map((_, i) => i);
const socket = createSocket({ type: 'udp4', reuseAddr: true });
const seen = new Map<string, number>();
let groupSends = 0;
let unicastSends = 0;

const crimp = new MirrorGroup({
  self,
  members,
  rng: new Rng(self + 1),
  now: now(),
  send: (to, bytes) => {
    const address = addresses[to];
    if (address === undefined) return;
    unicastSends++;
    socket.send(bytes, port, address);
  },
  sendToGroup: (bytes) => {
    groupSends++;
    socket.send(bytes, port, group);
  },
  deliver: (origin, seq) => {
    const key = `${origin}:${seq}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  },
});

let timer: NodeJS.Timeout | undefined;
const arm = (): void => {
  if (timer !== undefined) clearTimeout(timer);
  const wait = Math.max(0, Math.min(1000, crimp.nextTimeout() - now()));
  timer = setTimeout(() => {
    crimp.tick(now());
    arm();
  }, wait);
};

socket.on('message', (bytes, rinfo) => {
  const from = addresses.indexOf(rinfo.address);
  if (from < 0 || from === self) return;
  crimp.receive(now(), from, bytes);
  arm();
});

const finish = (): void => {
  const st = crimp.stats();
  const twice = [...seen.values()].filter((n) => n !== 1).length;
  emit('done', {
    delivered: seen.size,
    expected: (members.length - 1) * count,
    twice,
    groupSends,
    unicastSends,
    originated: st.originated,
    naksSent: st.naksSent,
    repairsSent: st.repairsSent,
    buffered: st.bufferedPayloads,
  });
  socket.close();
  process.exit(0);
};

socket.bind(port, () => {
  socket.setMulticastInterface(own);
  socket.setMulticastLoopback(false);
  socket.setMulticastTTL(1);
  socket.addMembership(group, own);
  emit('listening', { address: own, port });
  arm();
  let sent = 0;
  setTimeout(() => {
    const tick = setInterval(() => {
      crimp.originate(now(), Uint8Array.from([self, sent & 0xff, sent >> 8]));
      arm();
      if (++sent >= count) clearInterval(tick);
    }, 20);
  }, 1000);
  const check = setInterval(() => {
    const all = seen.size === (members.length - 1) * count && sent >= count;
    if (all && crimp.stats().bufferedPayloads === 0) {
      clearInterval(check);
      finish();
    }
  }, 50);
  setTimeout(finish, 20_000);
});
