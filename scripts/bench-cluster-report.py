#!/usr/bin/env python3
"""scripts/bench-cluster's tables: per replica count and client kind, throughput and latency, CPU
per call of each process group, Redis commands and PostgreSQL rows and commits per call; then Redis
alone and the capacity model's arithmetic. Usage: report.py WORK CONCURRENCY SECONDS."""
import json
import os
import platform
import re
import subprocess
import sys

work, concurrency, seconds = sys.argv[1], sys.argv[2], sys.argv[3]
GROUPS = [("replicas", "gateway JVMs"), ("upstreams", "node upstreams"), ("haproxy", "HAProxy"),
          ("redis", "Redis"), ("pg_bench", "PG (bench backends)"), ("pg_cluster", "PG (whole cluster)")]
SERVER_SIDE = ["replicas", "upstreams", "haproxy", "redis", "pg_cluster"]
PG_BATCHED = 9771  # records/s, BatchedInsertThroughputTest on this machine (docs/operations/postgresql.md)


def load(n, mode, phase):
    with open(os.path.join(work, f"snap-{n}-{mode}-{phase}.json")) as f:
        return json.load(f)


def delta_ticks(before, after):
    """A group's CPU in the window: each process's growth; one born in the window counts from zero."""
    return sum(t - before.get(pid, 0) for pid, t in after.items())


runs = []
for line in open(os.path.join(work, "results.tsv")):
    n, mode, values = line.rstrip("\n").split("\t")
    r = {k: float(v) for k, v in (kv.split("=") for kv in values.split())}
    b, a = load(n, mode, "before"), load(n, mode, "after")
    hz = a["hz"]
    r.update(n=int(n), mode=mode, rate=r["calls"] / r["seconds"])
    r["cpu"] = {g: delta_ticks(b["groups"][g], a["groups"][g]) / hz for g, _ in GROUPS}
    r["cpu"]["driver"] = r["driver_cpu_s"]
    r["machine"] = (a["machine_busy"] - b["machine_busy"]) / hz
    r["wall"] = a["wall"] - b["wall"]
    r["redis"] = {c: a["redis"].get(c, 0) - b["redis"].get(c, 0) for c in a["redis"]}
    r["redis"] = {c: v for c, v in r["redis"].items() if v > 0 and c != "info"}
    r["rows"] = a["pg_rows"] - b["pg_rows"]
    r["commits"] = a["pg_commits"] - b["pg_commits"]
    runs.append(r)

cpu_model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
java = subprocess.run(["bash", "-c", 'source <(sed -n "/^java_major()/,/^}/p;/^find_java()/,/^}/p" warden); '
                       '"$(find_java)" -version 2>&1 | head -1'], capture_output=True, text=True).stdout.strip()
print(f"## Cluster throughput ({os.cpu_count()} cores: {cpu_model}; {platform.system()} {platform.release()}; {java})")
print()
print(f"{concurrency} clients calling server-everything's `echo` through HAProxy for {seconds} s after a warm-up; "
      "everything (replicas, their node upstreams, HAProxy, Redis, PostgreSQL and the load generator) on the "
      f"same {os.cpu_count()} cores. `session` = 2025-11-25 with portable sessions, `stateless` = 2026-07-28.")
print()
print("| replicas | client | calls/s | p50 ms | p99 ms | errors | machine busy (cores) |")
print("|---:|---|---:|---:|---:|---:|---:|")
for r in runs:
    print(f"| {r['n']} | {r['mode']} | {r['rate']:.0f} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} | {r['errors']:.0f} | "
          f"{r['machine'] / r['wall']:.2f} of {os.cpu_count()} |")
print()
print("CPU per call (ms; utime+stime of each group in the measured window / calls):")
print()
print("| replicas | client | " + " | ".join(label for _, label in GROUPS) + " | load generator | server side | machine |")
print("|---:|---|" + "---:|" * (len(GROUPS) + 3))
for r in runs:
    per = {g: 1000 * v / r["calls"] for g, v in r["cpu"].items()}
    server = sum(per[g] for g in SERVER_SIDE)
    print(f"| {r['n']} | {r['mode']} | " + " | ".join(f"{per[g]:.3f}" for g, _ in GROUPS)
          + f" | {per['driver']:.3f} | {server:.3f} | {1000 * r['machine'] / r['calls']:.3f} |")
print()
print("Redis commands and PostgreSQL writes per call. commandstats counts the commands a script runs too; a")
print("rate limit is Bucket4j's compare-and-swap (a GET, then an EVAL that GETs and, if nobody wrote since,")
print("PSETEXes), so the replicas' round trips are GET + EVAL = 2 x EVAL, and EVALs per PSETEX are the")
print("attempts a bucket update took (1 without contention):")
print()
print("| replicas | client | Redis commands / call | by command | round trips / call | CAS attempts / update | PG rows / call | PG commits / call | rows / commit |")
print("|---:|---|---:|---|---:|---:|---:|---:|---:|")
for r in runs:
    total = sum(r["redis"].values()) / r["calls"]
    by = ", ".join(f"{c} {v / r['calls']:.2f}" for c, v in sorted(r["redis"].items(), key=lambda kv: -kv[1])
                   if v / r["calls"] >= 0.01)
    evals, writes = r["redis"].get("eval", 0), r["redis"].get("psetex", 0) + r["redis"].get("set", 0)
    print(f"| {r['n']} | {r['mode']} | {total:.2f} | {by} | {2 * evals / r['calls']:.1f} | "
          f"{evals / max(writes, 1):.1f} | {r['rows'] / r['calls']:.2f} | "
          f"{r['commits'] / r['calls']:.3f} | {r['rows'] / max(r['commits'], 1):.1f} |")
print()
bench = open(os.path.join(work, "redis-benchmark")).read().strip().splitlines()
print("Redis alone, `redis-benchmark -q -n 100000` (50 clients; it and Redis share the same cores):")
print()
for line in bench:
    print(f"- {line.strip()}")
print()

# The model, from the runs with the fewest replicas: one JVM has the cores to itself and sees every
# call (the hottest code), which is what a replica given its own cores looks like; more replicas on
# these 2 cores add each JVM's fixed background and their competition, not work per call.
fewest = min(y["n"] for y in runs)
print(f"Capacity model (from the {fewest}-replica runs: a replica with the cores to itself):")
print()


def capacity(command):
    found = [re.search(r"([0-9.]+) requests per second", l) for l in bench if l.startswith(command)]
    return float(found[0].group(1)) if found and found[0] else None


eval_capacity, get_capacity = capacity("EVAL"), capacity("GET")
for r in [x for x in runs if x["n"] == fewest]:
    per = {g: v / r["calls"] for g, v in r["cpu"].items()}
    gateway = per["replicas"] + per["upstreams"]
    server = sum(per[g] for g in SERVER_SIDE)
    redis_cmds = sum(r["redis"].values()) / r["calls"]
    trips = 2 * r["redis"].get("eval", 0) / r["calls"]
    print(f"- {r['mode']}: {1000 * server:.2f} ms of CPU per call on the server side "
          f"({1000 * gateway:.2f} gateway + upstream, {1000 * per['haproxy']:.2f} HAProxy, {1000 * per['redis']:.2f} Redis, "
          f"{1000 * per['pg_cluster']:.2f} PostgreSQL): 1,000 calls/s need {server * 1000:.1f} cores, "
          f"10,000 calls/s {server * 10000:.0f} cores ({gateway * 10000:.0f} of them gateway replicas). "
          f"Redis: {trips:.1f} round trips ({redis_cmds:.1f} commands) per call, {trips * 10000:,.0f} requests/s "
          "at 10,000 calls/s"
          + (f" against ~{get_capacity:,.0f} GETs/s and ~{eval_capacity:,.0f} EVALs/s measured here on one thread "
             f"(a ceiling near {2 * get_capacity * eval_capacity / (get_capacity + eval_capacity) / trips:,.0f} "
             "calls/s for one Redis at this contention)" if eval_capacity and get_capacity else "")
          + f"; its CPU {1000 * per['redis']:.3f} ms per call is {per['redis'] * 10000:.2f} of its one core at 10,000 calls/s. "
          f"PostgreSQL: {r['rows'] / r['calls']:.2f} rows per call in {r['commits'] / r['calls']:.3f} commits: "
          f"10,000 calls/s write {r['rows'] / r['calls'] * 10000:,.0f} rows/s against {PG_BATCHED:,} records/s "
          "measured batched on this machine.")
