#!/usr/bin/env python3
"""scripts/bench-cluster's snapshot, taken right before and right after the measured calls:
the CPU ticks of each process group (from /proc/PID/stat), the machine's busy ticks (/proc/stat),
Redis' INFO commandstats and the audit and incident rows in PostgreSQL (with the distinct
transactions that inserted them). Usage: snapshot.py PREFIX before|after; writes PREFIX-PHASE.json."""
import json
import os
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
ctx = dict(line.strip().split("=", 1) for line in open(os.path.join(here, "context")) if "=" in line)


def stat(pid):
    """(ppid, utime+stime, cutime+cstime) in clock ticks, or None once the process is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[1]), int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])


def processes():
    table = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            s = stat(int(name))
            if s:
                table[int(name)] = s
    return table


def descendants(table, roots):
    found, todo = set(), list(roots)
    while todo:
        parent = todo.pop()
        for pid, (ppid, _, _) in table.items():
            if ppid == parent and pid not in found:
                found.add(pid)
                todo.append(pid)
    return found


def psql(sql):
    out = subprocess.run(["runuser", "-u", "postgres", "--", "psql", "-d", "wardenbench", "-tAc", sql],
                         check=True, capture_output=True, text=True).stdout
    return out.strip()


def rows():
    """Rows in the bench schema's tables and the distinct transactions that inserted them. Counted
    in the tables, not read from pg_stat_user_tables / pg_stat_database: a backend that goes idle
    within a second of its last report keeps its counts for up to 10 s (PostgreSQL 15), so those
    views lag the window; committed rows and their xmin are exact at once."""
    union = " UNION ALL ".join(f"SELECT xmin::text AS x FROM warden_bench.{t}"
                              for t in ("warden_audit", "warden_incident"))
    count, commits = psql(f"SELECT count(*), count(DISTINCT x) FROM ({union}) r").split("|")
    return int(count), int(commits)


def redis_commandstats():
    out = subprocess.run(["redis-cli", "-p", ctx["redis_port"], "INFO", "commandstats"],
                         check=True, capture_output=True, text=True).stdout
    calls = {}
    for line in out.splitlines():
        if line.startswith("cmdstat_"):
            name, values = line[len("cmdstat_"):].split(":", 1)
            calls[name] = int(dict(v.split("=") for v in values.split(","))["calls"])
    return calls


def settled_rows():
    """The last batches commit within milliseconds of the last answer: read until two looks agree."""
    written = rows()
    for _ in range(20):
        time.sleep(0.1)
        again = rows()
        if again == written:
            break
        written = again
    return written


def main():
    prefix, phase = sys.argv[1], sys.argv[2]
    work = os.path.dirname(prefix)
    # Before: the slow reads (PostgreSQL) first, the clocks last; after: the clocks first. Either way
    # the snapshot's own work stays out of the window between the two readings of the clocks.
    written = settled_rows() if phase == "before" else None
    wall = time.monotonic()
    with open("/proc/stat") as f:
        cpu = [int(v) for v in f.readline().split()[1:]]
    table = processes()
    commands = redis_commandstats()
    replicas = [int(p) for p in open(os.path.join(work, "replica-pids")).read().split()]
    haproxy = int(open(os.path.join(work, "haproxy-pid")).read().strip())
    redis = int(open(os.path.join(work, "redis", "redis.pid")).read().strip())
    postmaster = int(open(os.path.join(ctx["pg_data"], "postmaster.pid")).readline().strip())
    bench_backends = [int(p) for p in psql(
        "SELECT pid FROM pg_stat_activity WHERE datname = 'wardenbench' AND pid <> pg_backend_pid()").split()]
    if written is None:
        written = settled_rows()

    def ticks(pids, with_children=False):
        return {str(p): table[p][1] + (table[p][2] if with_children else 0) for p in pids if p in table}

    groups = {
        "replicas": ticks(replicas),
        "upstreams": ticks(descendants(table, replicas)),
        "haproxy": ticks([haproxy]),
        "redis": ticks([redis]),
        # The whole PostgreSQL cluster: the postmaster with the backends it reaped (cutime), and those alive.
        "pg_cluster": {**ticks([postmaster], with_children=True), **ticks(descendants(table, [postmaster]))},
        # The backends connected to this benchmark's database (alive at the snapshot).
        "pg_bench": ticks(bench_backends),
    }
    machine_busy = sum(cpu) - cpu[3] - cpu[4]  # all but idle and iowait
    snapshot = {"groups": groups, "machine_busy": machine_busy, "wall": wall, "redis": commands,
                "pg_rows": written[0], "pg_commits": written[1], "hz": os.sysconf("SC_CLK_TCK")}
    with open(f"{prefix}-{phase}.json", "w") as f:
        json.dump(snapshot, f)


main()
