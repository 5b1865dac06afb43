"""Benchmark 7: event fan-out. 1 000 event streams (GET /v1/events) open at once, 8 per account
(the provider's per-account cap) over 125 accounts, while 100 running instances send metrics at
1 Hz to their owners' streams. Each stream is read as fast as it comes; measured: events each
stream received against what its instances sent, the lag from a sample's time to its arrival
(first and second half of the window: a growing queue shows as a growing lag), and the
provider's CPU. Floor: the same provider and instances over the same seconds with no stream
open (the sampling and billing it does anyway)."""
import json
import os
import selectors
import shutil
import socket
import tempfile
import time
from datetime import datetime

from common import Api, Sim, cpu_seconds, percentile, proc_status, wide_catalog

STREAMS_PER_ACCOUNT = 8  # EventBus::kMaxStreamsPerUser
SIGNUPS_PER_ADDRESS = 25  # below the provider's sign-up throttle (30 an hour per address)


def _accounts(port, count):
    """Signs up `count` accounts, from several loopback addresses (the sign-up throttle is per
    address); returns their tokens."""
    tokens = []
    for i in range(count):
        api = Api(port)
        api.source = (f"127.0.0.{2 + i // SIGNUPS_PER_ADDRESS}", 0)
        tokens.append(api.sign_up(f"fanout{i}@example.com"))
    return tokens


def _launch(port, token, count):
    api = Api(port)
    api.token = token
    for i in range(count):
        api.call("POST", "/v1/instances", {"name": f"fan-{i}", "gpu_type": "rtx4090", "gpu_count": 1,
                                           "image": "base"})
    return api


def _wait_running(apis, expected, timeout_s=120):
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        running = sum(1 for api in apis for i in api.call("GET", "/v1/instances") if i["state"] == "running")
        if running == expected:
            return
        time.sleep(0.5)
    raise RuntimeError(f"fewer than {expected} instances running after {timeout_s} s")


class _Stream:
    def __init__(self, port, token, account):
        self.account = account
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setblocking(False)
        self.sock.sendall(f"GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
                          "Accept: text/event-stream\r\n\r\n".encode())
        self.buffer = b""
        self.head = False
        self.closed = False
        self.metrics = 0
        self.lags = []  # (arrival monotonic, lag ms)
        self.cut_off = False

    def feed(self, data, clock_offset):
        if not data:
            self.closed = True
            return
        self.buffer += data
        if not self.head:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            if not self.buffer.startswith(b"HTTP/1.1 200"):
                raise RuntimeError("event stream refused: " + self.buffer[:200].decode(errors="replace"))
            self.head = True
            self.buffer = self.buffer[end + 4:]
        while True:
            end = self.buffer.find(b"\n\n")
            if end < 0:
                return
            event, self.buffer = self.buffer[:end], self.buffer[end + 2:]
            if event.startswith(b"event: metrics\n"):
                self.metrics += 1
                data_line = event.split(b"\n", 1)[1]
                at = json.loads(data_line[len(b"data: "):])["at"]
                sampled = datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp()
                now = time.time()
                self.lags.append((time.monotonic(), (now - sampled) * 1000.0))
            elif event.startswith(b"event: cut_off"):
                self.cut_off = True


def run(sim_exe, catalog_src, streams=1000, instances=100, seconds=20, log=print):
    accounts = -(-streams // STREAMS_PER_ACCOUNT)
    work = tempfile.mkdtemp(prefix="cardhour-bench-fanout-")
    catalog = wide_catalog(catalog_src, os.path.join(work, "catalog"))
    sim = Sim(sim_exe, os.path.join(work, "sim"), "inprocess", catalog_dir=catalog,
              extra_args=["--scrypt-cost-log2", "10"])
    opened = []
    try:
        tokens = _accounts(sim.port, accounts)
        # Instances spread over the first accounts, one each while they last.
        per_account = [0] * accounts
        for i in range(instances):
            per_account[i % accounts] += 1
        apis = [_launch(sim.port, tokens[a], n) for a, n in enumerate(per_account) if n]
        _wait_running(apis, instances)
        pid = sim.proc.pid
        ticks = os.sysconf("SC_CLK_TCK")

        # Floor: no stream open.
        c0, t0 = cpu_seconds(pid), time.monotonic()
        time.sleep(seconds)
        floor_cpu = (cpu_seconds(pid) - c0) / (time.monotonic() - t0) * 100.0

        selector = selectors.DefaultSelector()
        for s in range(streams):
            stream = _Stream(sim.port, tokens[s // STREAMS_PER_ACCOUNT], s // STREAMS_PER_ACCOUNT)
            opened.append(stream)
            selector.register(stream.sock, selectors.EVENT_READ, stream)
        # Let every stream get its head, then measure.
        deadline = time.monotonic() + 30
        while not all(s.head for s in opened) and time.monotonic() < deadline:
            for key, _ in selector.select(0.5):
                key.data.feed(key.fileobj.recv(65536), 0)
        if not all(s.head for s in opened):
            raise RuntimeError(f"only {sum(s.head for s in opened)} of {streams} streams opened")
        for s in opened:
            s.metrics, s.lags = 0, []
        c0, t0 = cpu_seconds(pid), time.monotonic()
        reader_c0 = time.process_time()
        while time.monotonic() - t0 < seconds:
            for key, _ in selector.select(0.2):
                try:
                    key.data.feed(key.fileobj.recv(65536), 0)
                except BlockingIOError:
                    pass
        elapsed = time.monotonic() - t0
        cpu = (cpu_seconds(pid) - c0) / elapsed * 100.0
        reader_cpu = (time.process_time() - reader_c0) / elapsed * 100.0
        rss_mib = proc_status(pid, "VmRSS") / 1024.0

        fed = [s for s in opened if per_account[s.account]]
        ratios = sorted(s.metrics / (per_account[s.account] * elapsed) for s in fed)
        half = t0 + elapsed / 2
        first = [lag for s in fed for (at, lag) in s.lags if at < half]
        second = [lag for s in fed for (at, lag) in s.lags if at >= half]
        result = {
            "streams": streams, "accounts": accounts, "instances": instances, "seconds": elapsed,
            "streams_fed": len(fed), "events_received": sum(s.metrics for s in opened),
            "events_expected": sum(per_account[s.account] for s in fed) * elapsed,
            "received_ratio_min": ratios[0] if ratios else 0.0,
            "received_ratio_median": percentile(ratios, 50) if ratios else 0.0,
            "lag_first_half_ms": {"p50": percentile(first, 50), "p99": percentile(first, 99)},
            "lag_second_half_ms": {"p50": percentile(second, 50), "p99": percentile(second, 99),
                                   "max": max(second) if second else 0.0},
            "closed": sum(1 for s in opened if s.closed), "cut_off": sum(1 for s in opened if s.cut_off),
            "provider_cpu_pct": cpu, "floor_cpu_pct": floor_cpu, "reader_cpu_pct": reader_cpu,
            "provider_rss_mib": rss_mib, "clock_ticks": ticks,
        }
        log(f"  {streams} streams ({len(fed)} fed by {instances} instances): received "
            f"{result['events_received']} of {result['events_expected']:.0f} expected metrics events "
            f"(min per stream {result['received_ratio_min']:.2f}x); lag p50/p99 "
            f"{result['lag_first_half_ms']['p50']:.1f}/{result['lag_first_half_ms']['p99']:.1f} ms then "
            f"{result['lag_second_half_ms']['p50']:.1f}/{result['lag_second_half_ms']['p99']:.1f} ms; "
            f"provider CPU {cpu:.1f} % (floor, no streams: {floor_cpu:.1f} %), RSS {rss_mib:.0f} MiB, "
            f"{result['closed']} closed")
        return result
    finally:
        for s in opened:
            s.sock.close()
        sim.stop()
        shutil.rmtree(work, ignore_errors=True)
