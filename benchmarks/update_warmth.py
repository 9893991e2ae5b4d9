#!/usr/bin/env python3
"""What a GPU server pays for an update: each binary serves its own copy of a
WatDiv database (`gsparql serve --backend gpu --update`, with --gpu-preload
where asked), the rounds interleaved ABBA. A round: one INSERT DATA of a new
`wsdbm:likes` triple, timed to its response (the commit and the snapshot the
server answers from next, preloaded where asked); every query that does not
read `likes`, once (the first pass after the update: what the new snapshot
copies to the GPU), and once more (warm). Prints a CSV line per binary and
round (with the sums of the phases the server reports in Server-Timing),
and checks that every query gave the same row count on every binary.

usage: update_warmth.py QUERY_DIR ROUNDS preload|lazy NAME=GSPARQL:DB:PORT ...
(BACKEND=cpu|auto in the environment serves from that backend instead; preload then means nothing.
UPDATES=process sends each update through `gsparql update` beside the server, as another process, instead
of to the server.)
"""
import csv
import os
import http.client
import pathlib
import subprocess
import sys
import time
import urllib.parse

LIKES = "<http://db.uwaterloo.ca/~galuc/wsdbm/likes>"
PHASES = ["parse", "plan", "execute"]


class Server:
    def __init__(self, name, binary, db, port, preload):
        self.name, self.port, self.binary, self.db = name, int(port), binary, db
        backend = os.environ.get("BACKEND", "gpu")
        args = [binary, "serve", "--db", db, "--backend", backend, "--update", "--port", port, "--threads", "2"]
        self.process = subprocess.Popen(args + (["--gpu-preload"] if preload else []),
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.connection = None
        for _ in range(600):
            try:
                self.request("GET", "/health")
                return
            except OSError:
                self.connection = None
                time.sleep(0.5)
        raise RuntimeError(f"{name}: the server did not start")

    def request(self, method, path, body=None, headers=None):
        if self.connection is None:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        self.connection.request(method, path, body=body, headers=headers or {})
        response = self.connection.getresponse()
        text = response.read().decode()
        if response.status != 200:
            raise RuntimeError(f"{self.name}: {method} {path[:80]}: {response.status} {text[:300]}")
        self.timing = response.getheader("Server-Timing") or ""
        return text

    def timed(self, *args, **kwargs):
        start = time.perf_counter()
        text = self.request(*args, **kwargs)
        return (time.perf_counter() - start) * 1000, text

    def query(self, text):
        """Milliseconds to the answer, its rows, and the server's phases (parse, plan, execute)."""
        path = "/sparql?" + urllib.parse.urlencode({"query": text})
        ms, body = self.timed("GET", path, headers={"Accept": "text/tab-separated-values"})
        phases = dict(p.strip().split(";dur=") for p in self.timing.split(",") if ";dur=" in p)
        return ms, body.count("\n") - 1, [float(phases.get(k, 0)) for k in PHASES]  # rows: less the header line

    def update(self, text):
        if os.environ.get("UPDATES") == "process":
            start = time.perf_counter()
            subprocess.run([self.binary, "update", "--db", self.db, text], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            return (time.perf_counter() - start) * 1000
        return self.timed("POST", "/sparql", body=text.encode(),
                          headers={"Content-Type": "application/sparql-update"})[0]

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=60)


def main():
    folder, rounds, mode, specs = pathlib.Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    queries = [p.read_text() for p in sorted(folder.iterdir()) if p.is_file()]
    queries = [q for q in queries if "likes" not in q]
    servers = []
    for spec in specs:
        name, rest = spec.split("=", 1)
        binary, db, port = rest.split(":")
        servers.append(Server(name, binary, db, port, mode == "preload"))
    rows = {}
    run = time.time_ns()  # a triple new to the database in every round of every run: an update that changes it
    for server in servers:  # once each before the rounds: the warm state an update starts from
        for q in queries:
            server.query(q)
    out = csv.writer(sys.stdout)
    out.writerow(["binary", "round", "update_ms", "after_update_ms", "warm_ms", "queries"] +
                 [f"{p}_{phase}_ms" for p in ("after", "warm") for phase in PHASES])
    for r in range(rounds):
        order = servers if r % 2 == 0 else list(reversed(servers))
        for server in order:
            update_ms = server.update(f"INSERT DATA {{ <http://db.uwaterloo.ca/~galuc/wsdbm/User0> {LIKES} "
                                      f"<http://example.org/new{run}-{r}> }}")
            passes, phases = [], []
            for _ in range(2):
                total, sums = 0.0, [0.0] * len(PHASES)
                for i, q in enumerate(queries):
                    ms, count, parts = server.query(q)
                    total += ms
                    sums = [a + b for a, b in zip(sums, parts)]
                    if rows.setdefault(i, count) != count:
                        raise RuntimeError(f"{server.name}: query {i} gave {count} rows, another binary {rows[i]}")
                passes.append(total)
                phases += sums
            out.writerow([server.name, r, f"{update_ms:.2f}", f"{passes[0]:.2f}", f"{passes[1]:.2f}", len(queries)] +
                         [f"{x:.2f}" for x in phases])
            sys.stdout.flush()
    for server in servers:
        server.stop()


if __name__ == "__main__":
    main()
