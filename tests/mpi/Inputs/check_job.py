#!/usr/bin/env python3
"""Checks the job directory of samples/jacobi_mpi.c (docs/MPI.md).

usage: check_job.py <pomp-report> <job dir> <ranks> <threads> <iterations>

- job.json: the job's size and parts, complete, clock offsets for every rank;
- per rank: exact visits of every MPI call and of the parallel regions in profile.json, per
  thread where it matters (the per-thread MPI_Allreduce is on thread 1), and the same calls and
  the bytes of the halo exchange in mpi.json;
- pomp-report --json on the job: every row's visits, per-rank shares, min/mean/max per rank and
  the rank of the max equal what the parts' own profiles give.
Prints one line per check group and "job: OK"; exits 1 at the first difference.
"""
import json
import os
import subprocess
import sys

HALO_BYTES = (64 + 2) * 8  # one row of NY + 2 doubles


def fail(message):
    print("FAILED: " + message)
    sys.exit(1)


def expect(what, got, want):
    if got != want:
        fail("%s: %r, expected %r" % (what, got, want))


def title(node, regions):
    region = regions.get(node["region"])
    text = node["construct"]
    if region:
        if region["name"]:
            text += ' "%s"' % region["name"]
        if region["location"]:
            text += " @" + region["location"]
    return text


def rank_rows(profile):
    """(title) -> visits, exclusive_ns, and visits per thread, summed over call paths."""
    regions = {r["id"]: r for r in profile["regions"]}
    rows = {}
    for node in profile["nodes"]:
        if node["parent"] is None:
            continue
        row = rows.setdefault(title(node, regions), {"visits": 0, "exclusive_ns": 0, "threads": {}})
        row["visits"] += node["visits"]
        row["exclusive_ns"] += node["exclusive_ns"]
        for share in node["per_thread"]:
            row["threads"][share["thread"]] = row["threads"].get(share["thread"], 0) + share["visits"]
    return rows


def main():
    report, job_dir, ranks, threads, iters = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
    with open(os.path.join(job_dir, "job.json")) as f:
        job = json.load(f)
    expect("job size", job["size"], ranks)
    expect("parts", job["parts"], ["rank-%d" % r for r in range(ranks)])
    expect("complete", job["complete"], True)
    for key in ("offsets_at_init_ns", "offsets_at_finalize_ns"):
        expect("clock " + key, len(job["clock"][key]), ranks)
        expect("rank 0's own offset " + key, job["clock"][key][0], 0)
    print("job.json: %d ranks, complete, clock offsets at init and finalize" % ranks)

    calls = {"MPI_Init_thread": 1, "MPI_Bcast": 1, "MPI_Irecv": 2 * iters,
             "MPI_Isend": 2 * iters, "MPI_Waitall": iters, "MPI_Allreduce": iters + threads,
             "MPI_Gather": 1, "MPI_Barrier": 1, "MPI_Finalize": 1}
    per_rank = []
    for rank in range(ranks):
        part = os.path.join(job_dir, "rank-%d" % rank)
        with open(os.path.join(part, "profile.json")) as f:
            profile = json.load(f)
        expect("rank %d mpi" % rank, profile["mpi"], {"rank": rank, "size": ranks})
        rows = rank_rows(profile)
        per_rank.append(rows)
        for name, count in calls.items():
            expect("rank %d visits of %s" % (rank, name), rows['MPI "%s"' % name]["visits"], count)
        # One MPI_Allreduce per thread from inside the parallel region: thread 1 made one.
        if threads > 1:
            expect("rank %d MPI_Allreduce on thread 1" % rank,
                   rows['MPI "MPI_Allreduce"']["threads"].get(1), 1)
        bodies = sorted(v["visits"] for t, v in rows.items() if t.startswith("parallel body"))
        expect("rank %d parallel bodies" % rank, bodies, sorted([threads, iters * threads,
                                                                 iters * threads]))
        with open(os.path.join(part, "mpi.json")) as f:
            mpi = {c["name"]: c for c in json.load(f)["calls"]}
        for name, count in calls.items():
            expect("rank %d mpi.json calls of %s" % (rank, name), mpi[name]["calls"], count)
        neighbours = (rank > 0) + (rank < ranks - 1)
        expect("rank %d bytes sent by MPI_Isend" % rank, mpi["MPI_Isend"]["bytes_sent"],
               neighbours * iters * HALO_BYTES)
        expect("rank %d bytes received by MPI_Irecv" % rank,
               mpi["MPI_Irecv"]["bytes_received"], neighbours * iters * HALO_BYTES)
    print("parts: exact MPI calls, parallel bodies and halo bytes on each of %d ranks" % ranks)

    out = subprocess.run([report, "--json", job_dir], check=True, capture_output=True, text=True)
    doc = json.loads(out.stdout)
    expect("missing ranks", doc["missing_ranks"], [])
    for row in doc["rows"]:
        name = row["region"]
        shares = {s["rank"]: s for s in row["per_rank"]}
        want_visits = sum(rows[name]["visits"] for rows in per_rank if name in rows)
        expect("job visits of " + name, row["visits"], want_visits)
        excl = [rows[name]["exclusive_ns"] if name in rows else 0 for rows in per_rank]
        for rank, rows in enumerate(per_rank):
            if name in rows:
                expect("rank %d share of %s" % (rank, name), shares[rank]["visits"],
                       rows[name]["visits"])
                expect("rank %d exclusive of %s" % (rank, name), shares[rank]["exclusive_ns"],
                       rows[name]["exclusive_ns"])
        expect("min of " + name, row["rank_min_ns"], min(excl))
        expect("max of " + name, row["rank_max_ns"], max(excl))
        expect("rank of the max of " + name, row["max_rank"], excl.index(max(excl)))
        if abs(row["rank_mean_ns"] - sum(excl) / len(excl)) > 1e-6 * max(1, max(excl)):
            fail("mean of %s: %r, expected %r" % (name, row["rank_mean_ns"], sum(excl) / len(excl)))
    mpi = {c["name"]: c for c in doc["mpi"]}
    expect("job MPI_Isend calls", mpi["MPI_Isend"]["calls"], ranks * 2 * iters)
    expect("job MPI_Isend bytes", mpi["MPI_Isend"]["bytes_sent"],
           2 * (ranks - 1) * iters * HALO_BYTES)
    print("pomp-report: %d rows agree with the parts" % len(doc["rows"]))
    print("job: OK")


if __name__ == "__main__":
    main()
