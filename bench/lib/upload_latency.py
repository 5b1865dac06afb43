"""Benchmark 9: the API's answer time while a large private model upload goes in and finishes.

One client sends a file of `size_gib` GiB in the provider's largest chunks (`chunk_max_bytes`),
as the desktop client does; another asks `GET /v1/me` every 20 ms on its own connections the whole
time, through the last chunk (which completes the upload: the provider checks the whole file's
SHA-256). The floor: the same `GET /v1/me` asked the same way by an idle provider, just before.
Goal: every answer during the upload under 50 ms.
"""
import hashlib
import http.client
import json
import os
import tempfile
import threading
import time

from common import Sim, median, percentile

GOAL_MS = 50.0
PROBE_INTERVAL_S = 0.02


def _probe(port, token, stop, samples):
    """GET /v1/me every PROBE_INTERVAL_S until `stop` is set: (monotonic time, ms) pairs."""
    while not stop.is_set():
        t0 = time.monotonic()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/v1/me", headers={"Authorization": "Bearer " + token})
        resp = conn.getresponse()
        resp.read()
        conn.close()
        elapsed = (time.monotonic() - t0) * 1000
        if resp.status != 200:
            raise RuntimeError(f"GET /v1/me answered {resp.status}")
        samples.append((t0, elapsed))
        time.sleep(max(0.0, PROBE_INTERVAL_S - elapsed / 1000))


def _probe_for(port, token, seconds):
    stop = threading.Event()
    samples = []
    worker = threading.Thread(target=_probe, args=(port, token, stop, samples))
    worker.start()
    time.sleep(seconds)
    stop.set()
    worker.join()
    return [ms for _, ms in samples]


def _figures(values):
    return {"count": len(values), "p50_ms": median(values), "p99_ms": percentile(values, 99),
            "max_ms": max(values)}


def run(sim_exe, size_gib, log=print):
    data_dir = tempfile.mkdtemp(prefix="cardhour-bench-upload-")
    sim = Sim(sim_exe, data_dir, "inprocess")
    try:
        api = sim.api
        api.sign_up("upload@bench.example")
        floor = _probe_for(sim.port, api.token, 3)

        size = size_gib * 1024 ** 3
        chunk = os.urandom(1024 * 1024)  # one random MiB, repeated: the disk and the hash see it all
        whole = hashlib.sha256()
        for _ in range(size // len(chunk)):
            whole.update(chunk)
        upload = api.call("POST", "/v1/model-uploads",
                          {"name": "bench-weights", "size_bytes": size, "sha256": whole.hexdigest()})
        step = min(len(chunk), int(upload.get("chunk_max_bytes", len(chunk))))
        chunk_sha = hashlib.sha256(chunk[:step]).hexdigest()

        stop = threading.Event()
        samples = []
        prober = threading.Thread(target=_probe, args=(sim.port, api.token, stop, samples))
        prober.start()
        t0 = time.monotonic()
        last_chunk_ms = 0.0
        conn = http.client.HTTPConnection("127.0.0.1", sim.port, timeout=600)
        try:
            offset = 0
            while offset < size:
                sent = time.monotonic()
                conn.request("PUT", f"/v1/model-uploads/{upload['id']}", chunk[:step],
                             {"Authorization": "Bearer " + api.token,
                              "Content-Type": "application/octet-stream",
                              "Upload-Offset": str(offset), "Upload-Chunk-SHA256": chunk_sha})
                resp = conn.getresponse()
                body = resp.read()
                if resp.status not in (200, 201):
                    raise RuntimeError(f"chunk at {offset}: {resp.status} {body[:300]!r}")
                offset += step
                last_chunk_ms = (time.monotonic() - sent) * 1000
            state = json.loads(body).get("state")
        finally:
            conn.close()
            upload_s = time.monotonic() - t0
            stop.set()
            prober.join()
        if state != "complete":
            raise RuntimeError(f"the upload ended in state {state!r}")
        during = [ms for _, ms in samples]
        result = {"size_gib": size_gib, "upload_s": upload_s, "mib_per_s": size / 1024 ** 2 / upload_s,
                  "last_chunk_ms": last_chunk_ms, "idle": _figures(floor), "during": _figures(during),
                  "goal_ms": GOAL_MS}
        result["max_vs_goal"] = result["during"]["max_ms"] / GOAL_MS
        result["p99_vs_idle"] = result["during"]["p99_ms"] / max(result["idle"]["p99_ms"], 1e-3)
        log(f"  {size_gib} GiB in {upload_s:.1f} s ({result['mib_per_s']:.0f} MiB/s), last chunk (whole-file "
            f"check) {last_chunk_ms:.1f} ms; GET /v1/me during it: p50 {result['during']['p50_ms']:.1f} ms, p99 "
            f"{result['during']['p99_ms']:.1f} ms, max {result['during']['max_ms']:.1f} ms over "
            f"{len(during)} answers (idle p99 {result['idle']['p99_ms']:.1f} ms)")
        return result
    finally:
        sim.stop()
        for root, dirs, files in os.walk(data_dir, topdown=False):
            for name in files:
                os.unlink(os.path.join(root, name))
            for name in dirs:
                os.rmdir(os.path.join(root, name))
        os.rmdir(data_dir)
