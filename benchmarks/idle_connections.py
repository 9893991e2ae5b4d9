#!/usr/bin/env python3
"""Opens N idle connections to a running `gsparql serve`, then times queries.

    benchmarks/idle_connections.py PORT [N]

Prints how long the connections took to open and how long each of three
`ASK {}` queries sent after them took to answer (60 s client timeout).
"""
import resource
import socket
import sys
import time
import urllib.parse
import urllib.request

port = int(sys.argv[1])
count = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
sockets = []
start = time.time()
for _ in range(count):
    s = socket.socket()
    s.connect(("127.0.0.1", port))
    sockets.append(s)
print(f"opened {len(sockets)} idle connections in {time.time() - start:.2f} s")
url = f"http://127.0.0.1:{port}/sparql?query=" + urllib.parse.quote("ASK {}")
for i in range(3):
    start = time.time()
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            print(f"query {i + 1}: {response.status} after {time.time() - start:.3f} s")
    except Exception as error:  # a timeout is the result being measured
        print(f"query {i + 1}: {error} after {time.time() - start:.2f} s")
