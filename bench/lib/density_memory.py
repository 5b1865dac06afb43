"""Memory of a container counted whole, for benchmark 6: its cgroup (without page cache, as the
engine's stats and the provider's telemetry count it) plus every process the engine keeps for it
outside that cgroup (conmon, slirp4netns, rootlessport and its child). Those processes share
pages (one conmon binary mapped hundreds of times), so they count by PSS
(/proc/PID/smaps_rollup): each shared page split between the processes that map it."""
import json
import os
import subprocess

from common import median


def _read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def pss_kib(pid):
    for line in _read(f"/proc/{pid}/smaps_rollup").splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1])
    return 0


def memory_cgroup(pid):
    """The memory cgroup folder of a process (cgroup v1's memory hierarchy, else v2's)."""
    for line in _read(f"/proc/{pid}/cgroup").splitlines():
        num, controllers, path = line.split(":", 2)
        if "memory" in controllers.split(","):
            return "/sys/fs/cgroup/memory" + path
        if num == "0" and controllers == "":
            v2 = "/sys/fs/cgroup" + path
            if os.path.exists(v2 + "/memory.current"):
                return v2
    return None


def cgroup_memory_kib(folder):
    """In use without page cache, as `podman stats` and gpu/Telemetry count it."""
    stat = dict(line.split() for line in _read(folder + "/memory.stat").splitlines() if " " in line)
    if os.path.exists(folder + "/memory.current"):
        used, cache = int(_read(folder + "/memory.current") or 0), int(stat.get("inactive_file", 0))
    else:
        used, cache = int(_read(folder + "/memory.usage_in_bytes") or 0), int(stat.get("total_inactive_file", 0))
    return max(0, used - cache) / 1024


def _processes():
    """pid -> (parent pid, command name, command line) of every process."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        stat = _read(f"/proc/{entry}/stat")
        if not stat:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        table[int(entry)] = (int(fields[1]), stat[stat.index("(") + 1:stat.rindex(")")],
                             _read(f"/proc/{entry}/cmdline").replace("\0", " "))
    return table


def _listeners(ports):
    """host port -> pids holding a listening TCP socket on it (the engine's port forwarders)."""
    inodes = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in _read(table).splitlines()[1:]:
            parts = line.split()
            if len(parts) > 9 and parts[3] == "0A":  # LISTEN
                port = int(parts[1].rsplit(":", 1)[1], 16)
                if port in ports:
                    inodes[f"socket:[{parts[9]}]"] = port
    holders = {}
    if not inodes:
        return holders
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fds = os.listdir(f"/proc/{entry}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                target = os.readlink(f"/proc/{entry}/fd/{fd}")
            except OSError:
                continue
            if target in inodes:
                holders.setdefault(inodes[target], set()).add(int(entry))
    return holders


def _inspect(podman, names, env):
    out = subprocess.run([podman, "inspect", "--type", "container", "--format", "json"] + names, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    return json.loads(out) if out.strip() else []


def whole_memory(podman, names, env):
    """Per container and as medians: cgroup KiB, outside KiB (PSS), and the outside by process name."""
    containers = []
    for c in _inspect(podman, names, env):
        state, net = c.get("State", {}), c.get("NetworkSettings", {})
        ports = [int(b["HostPort"]) for binds in (net.get("Ports") or {}).values() for b in (binds or [])
                 if b.get("HostPort")]
        containers.append({"id": c["Id"], "pid": state.get("Pid", 0), "conmon": state.get("ConmonPid", 0),
                           "netns": net.get("SandboxKey") or "", "ports": ports})
    procs = _processes()
    children = {}
    for pid, (ppid, _, _) in procs.items():
        children.setdefault(ppid, []).append(pid)
    holders = _listeners({p for c in containers for p in c["ports"]})

    # Which processes each container keeps outside its cgroup: conmon, whatever names the
    # container's id or network namespace on its command line, whatever listens on its published
    # ports, and their descendants; minus the container's own processes.
    owners = {}
    for c in containers:
        c["cgroup"] = memory_cgroup(c["pid"]) if c["pid"] else None
        roots = {c["conmon"]} if c["conmon"] else set()
        for pid, (_, _, cmdline) in procs.items():
            if c["id"] in cmdline or (c["netns"] and c["netns"] in cmdline):
                roots.add(pid)
        for port in c["ports"]:
            roots |= holders.get(port, set())
        kept, todo = set(), list(roots)
        while todo:
            pid = todo.pop()
            if pid in kept or pid not in procs:
                continue
            group = memory_cgroup(pid)
            if c["cgroup"] and group and group.startswith(c["cgroup"]):
                continue  # inside the container: its cgroup counts it already
            kept.add(pid)
            todo += children.get(pid, [])
        c["outside"] = kept
        for pid in kept:
            owners[pid] = owners.get(pid, 0) + 1

    pss = {pid: pss_kib(pid) for pid in owners}
    per = []
    for c in containers:
        by_name = {}
        for pid in c["outside"]:
            name = procs[pid][1]
            by_name[name] = by_name.get(name, 0) + pss[pid] / owners[pid]  # a shared process split
        inside = cgroup_memory_kib(c["cgroup"]) if c["cgroup"] else None
        per.append({"inside_kib": inside, "outside_kib": sum(by_name.values()), "by_process": by_name})
    counted = [p for p in per if p["inside_kib"] is not None]
    names_seen = sorted({n for p in counted for n in p["by_process"]})
    return {
        "count": len(counted),
        "inside_mib": median([p["inside_kib"] / 1024 for p in counted]),
        "outside_mib": median([p["outside_kib"] / 1024 for p in counted]),
        "whole_mib": median([(p["inside_kib"] + p["outside_kib"]) / 1024 for p in counted]),
        "outside_by_process_mib": {n: median([p["by_process"].get(n, 0) / 1024 for p in counted])
                                   for n in names_seen},
        "per_container": per,
    }
