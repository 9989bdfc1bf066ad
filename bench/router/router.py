# Userspace L3 impairment router between benchmark namespaces over TUN devices; knows nothing of the stacks it carries.
#
# One TUN per namespace, all opened here in the root namespace and then moved into their namespaces by
# bench/router/testbed.ts or sites.ts (the fds stay valid). Two shapes of network:
# - star (config "server", "clients"): IPv4 packets from a client go to the server through that client's "up"
#   bottleneck; packets from the server go to the client they are addressed to through its "down" bottleneck.
# - sites (config "sites"): every node reaches every other, through its own "up" link, the core link between
#   the two sites when they differ, and the receiver's "down" link.
# Nothing else is forwarded: no other address is ever reached.
#
# Impairment has src-main/net/sim/shaper.ts's semantics and RNG draw order (bottleneck queue with tail drop,
# then loss, duplication, delay + jitter, reorder hold), driven by a port of src-main/net/rng.ts (sfc32 seeded
# through splitmix32), so a seed means the same thing here as in the simulator. Sizes are whole IP packets.
#
# Usage: router.py CONFIG_JSON. Prints {"ev":"ready"} once the devices exist. SIGUSR1 prints a counters
# snapshot as one JSON line; SIGTERM/SIGINT print a final snapshot and exit. It also exits by itself when its
# parent goes away or after config["maxSeconds"], so it can never outlive the benchmark.
import errno
import fcntl
import heapq
import json
import os
import select
import signal
import struct
import sys
import time

TUNSETIFF = 0x400454CA
IFF_TUN = 0x0001
IFF_NO_PI = 0x1000
M32 = 0xFFFFFFFF
QUEUE_BUCKET_MS = 5
# How late the router itself releases a datagram past its due time (the lab's own delay, not a link's): counts per
# LATE_BUCKET_MS bucket, the last one open-ended, so a window's percentiles come from two snapshots' difference.
LATE_BUCKET_MS = 0.25
LATE_BUCKETS = 201


def splitmix32(z):
    z &= M32
    z = ((z ^ (z >> 16)) * 0x85EBCA6B) & M32
    z = ((z ^ (z >> 13)) * 0xC2B2AE35) & M32
    return (z ^ (z >> 16)) & M32


class Rng:
    """src-main/net/rng.ts, draw for draw (seeds below 2**32)."""

    def __init__(self, seed):
        base = seed & M32
        self.a = splitmix32(base + 0x9E3779B9)
        self.b = splitmix32(base + 2 * 0x9E3779B9)
        self.c = splitmix32(base + 3 * 0x9E3779B9)
        self.d = splitmix32(base + 4 * 0x9E3779B9)
        for _ in range(12):
            self.uint32()

    def uint32(self):
        t = (self.a + self.b + self.d) & M32
        self.d = (self.d + 1) & M32
        self.a = self.b ^ (self.b >> 9)
        self.b = (self.c + (self.c << 3)) & M32
        self.c = ((self.c << 21) | (self.c >> 11)) & M32
        self.c = (self.c + t) & M32
        return t

    def next(self):
        return self.uint32() / 4294967296.0

    def bool(self, p):
        return self.next() < p


class Bottleneck:
    """One direction of one client's link: LinkConditions plus when the bottleneck is next free (ms)."""

    def __init__(self, c):
        self.loss = float(c.get("loss", 0))
        self.delay = float(c.get("delayMs", 0))
        self.jitter = float(c.get("jitterMs", 0))
        self.reorder = float(c.get("reorder", 0))
        self.duplicate = float(c.get("duplicate", 0))
        self.bps = float(c.get("bandwidthBps", 0))
        self.max_queue = float(c.get("maxQueueMs", 200))
        self.busy_until = 0.0
        self.counts = {"packets": 0, "bytes": 0, "lost": 0, "queueDrops": 0, "delivered": 0}
        # How long each datagram the bottleneck took waited in its queue: counts per QUEUE_BUCKET_MS bucket
        # (the last one open-ended), so a window's percentiles come from two snapshots' difference.
        if self.bps > 0:
            self.counts["queueWaitMs"] = [0] * (int(self.max_queue // QUEUE_BUCKET_MS) + 2)

    def shape(self, rng, now, size):
        """shapeDatagram: None when dropped, else the due times (ms) of each copy."""
        depart = now
        if self.bps > 0:
            start = max(now, self.busy_until)
            if start - now > self.max_queue:
                self.counts["queueDrops"] += 1
                return None
            depart = start + size * 8 * 1000 / self.bps
            waits = self.counts["queueWaitMs"]
            waits[min(len(waits) - 1, int((start - now) // QUEUE_BUCKET_MS))] += 1
            self.busy_until = depart
        if rng.bool(self.loss):
            self.counts["lost"] += 1
            return None
        copies = 2 if rng.bool(self.duplicate) else 1
        due = []
        for _ in range(copies):
            at = depart + self.delay + (rng.next() * self.jitter if self.jitter > 0 else 0)
            if rng.bool(self.reorder):
                at += self.delay * (1 + rng.next() * 2) + 1
            due.append(at)
        return due


def open_tun(name):
    fd = os.open("/dev/net/tun", os.O_RDWR | os.O_NONBLOCK)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", name.encode(), IFF_TUN | IFF_NO_PI))
    return fd


def now_ms():
    return time.monotonic() * 1000.0


def star(cfg):
    """The compare benchmark's network: clients reach the server (and only it) through their up/down bottlenecks."""
    server_addr = bytes(int(p) for p in cfg["server"]["addr"].split("."))
    server_fd = open_tun(cfg["server"]["dev"])
    clients = []  # (fd, addr bytes, up, down)
    for c in cfg["clients"]:
        addr = bytes(int(p) for p in c["addr"].split("."))
        clients.append((open_tun(c["dev"]), addr, Bottleneck(c["up"]), Bottleneck(c["down"])))
    by_fd = {fd: i for i, (fd, _, _, _) in enumerate(clients)}
    by_addr = {addr: i for i, (_, addr, _, _) in enumerate(clients)}

    def route(fd, dst):
        if fd == server_fd:
            i = by_addr.get(dst)
            return None if i is None else ([clients[i][3]], clients[i][0])
        if dst != server_addr:
            return None
        return [clients[by_fd[fd]][2]], server_fd

    def counts():
        out = []
        for _, addr, up, down in clients:
            out.append({"addr": ".".join(map(str, addr)), "up": up.counts, "down": down.counts})
        return {"clients": out}

    return [server_fd] + [c[0] for c in clients], route, counts


def sites(cfg):
    """
    Sites joined by a core: every node reaches every other; a datagram crosses the sender's "up" link, the core
    link from its site to the receiver's when the two sites differ (one bottleneck per ordered pair of sites), then
    the receiver's "down" link.
    """
    nodes = []  # (fd, addr bytes, site, up, down)
    for n in cfg["sites"]["nodes"]:
        addr = bytes(int(p) for p in n["addr"].split("."))
        nodes.append((open_tun(n["dev"]), addr, str(n["site"]), Bottleneck(n["up"]), Bottleneck(n["down"])))
    by_fd = {n[0]: n for n in nodes}
    by_addr = {n[1]: n for n in nodes}
    core = {}
    for a in sorted({n[2] for n in nodes}):
        for b in sorted({n[2] for n in nodes}):
            if a != b:
                core[(a, b)] = Bottleneck(cfg["sites"]["core"])

    def route(fd, dst):
        src, to = by_fd[fd], by_addr.get(dst)
        if to is None or to is src:
            return None
        links = [src[3]] + ([core[(src[2], to[2])]] if src[2] != to[2] else []) + [to[4]]
        return links, to[0]

    def counts():
        return {
            "nodes": [
                {"addr": ".".join(map(str, n[1])), "site": n[2], "up": n[3].counts, "down": n[4].counts}
                for n in nodes
            ],
            "core": [{"from": a, "to": b, "counts": l.counts} for (a, b), l in sorted(core.items())],
        }

    return [n[0] for n in nodes], route, counts


def through(links, rng, now, size):
    """A datagram across links in turn (each its own queue, loss and delay): the due times of what arrives."""
    due = [now]
    for link in links:
        link.counts["packets"] += len(due)
        link.counts["bytes"] += size * len(due)
        after = []
        for at in due:
            out = link.shape(rng, at, size)
            if out is not None:
                link.counts["delivered"] += 1
                after.extend(out)
        due = after
    return due


def raise_priority(cfg):
    """
    A network's delay does not depend on how busy the hosts at its ends are, but this router shares the machine with
    them: with config "realtime" it asks to run before them (SCHED_FIFO at the lowest real-time priority; it sleeps in
    select() whenever nothing is due, so it never holds a core). Returns what it got.
    """
    if not cfg.get("realtime"):
        return "normal"
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
        return "fifo"
    except (OSError, AttributeError):
        pass
    try:
        os.nice(-10)
        return "nice"
    except OSError:
        return "normal"


def main():
    cfg = json.loads(sys.argv[1])
    priority = raise_priority(cfg)
    rng = Rng(int(cfg["seed"]))
    ports, route, counts = sites(cfg) if "sites" in cfg else star(cfg)
    parent = os.getppid()
    deadline = time.monotonic() + float(cfg.get("maxSeconds", 900))
    pending = []  # heap of (due ms, order, fd, packet)
    order = 0
    flags = {"snapshot": False, "stop": False}
    stray = {"notIpv4": 0, "unroutable": 0, "writeErrors": 0}
    late = [0] * LATE_BUCKETS

    def snapshot():
        out = {"ev": "stats", "atMs": now_ms(), "stray": stray, "lateMs": late, **counts()}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()

    signal.signal(signal.SIGUSR1, lambda *_: flags.__setitem__("snapshot", True))
    signal.signal(signal.SIGTERM, lambda *_: flags.__setitem__("stop", True))
    signal.signal(signal.SIGINT, lambda *_: flags.__setitem__("stop", True))
    # Signals wake select() through a self-pipe, so a snapshot is taken at once, not at the next timeout.
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    sys.stdout.write(json.dumps({"ev": "ready", "priority": priority}) + "\n")
    sys.stdout.flush()

    fds = [wake_r] + ports
    while not flags["stop"] and time.monotonic() < deadline and os.getppid() == parent:
        if flags["snapshot"]:
            flags["snapshot"] = False
            snapshot()
        t = now_ms()
        while pending and pending[0][0] <= t:
            due, _, fd, pkt = heapq.heappop(pending)
            late[min(LATE_BUCKETS - 1, int((now_ms() - due) / LATE_BUCKET_MS))] += 1
            try:
                os.write(fd, pkt)
            except OSError:
                stray["writeErrors"] += 1  # the device went down (teardown) or the queue is full
        timeout = 0.5 if not pending else max(0.0, (pending[0][0] - now_ms()) / 1000.0)
        try:
            ready, _, _ = select.select(fds, [], [], min(timeout, 0.5))
        except InterruptedError:
            continue
        for fd in ready:
            if fd == wake_r:
                try:
                    os.read(wake_r, 512)
                except BlockingIOError:
                    pass
                continue
            for _ in range(256):  # bounded batch per wake-up
                try:
                    pkt = os.read(fd, 65536)
                except OSError as e:
                    if e.errno in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EIO):
                        break
                    raise
                if len(pkt) < 20 or pkt[0] >> 4 != 4:
                    stray["notIpv4"] += 1  # IPv6 neighbour discovery and the like: never forwarded
                    continue
                r = route(fd, pkt[16:20])
                if r is None:
                    stray["unroutable"] += 1
                    continue
                links, out_fd = r
                for at in through(links, rng, now_ms(), len(pkt)):
                    order += 1
                    heapq.heappush(pending, (at, order, out_fd, pkt))
    snapshot()


if __name__ == "__main__":
    main()
